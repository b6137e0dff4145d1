package io.queuegate.ingest.front;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Token buckets per client at ingest's door ({@link PerClientLimits}), one set per ingest instance. The defaults are
 * for people: a person enters a few times a minute and polls when {@code pollAfterMs} says (every second at the
 * most), and a few of them may share an address. Behind a carrier's NAT many more do; raise the limits there, or let
 * a proxy of your own name the client ({@code queuegate.ingest.trusted-proxies}).
 *
 * @param enabled whether the door counts requests per client at all
 * @param enterBurst enters a client may make at once
 * @param entersPerMinute enters a client may make a minute, after its burst
 * @param pollBurst status polls (and challenge fetches) a client may make at once
 * @param pollsPerSecond status polls (and challenge fetches) a client may make a second, after its burst
 * @param maxClients clients remembered at once, in a table of 24 bytes a client made at start; past it the clients
 *        nearest to a full allowance are forgotten (which only gives them a full one), so a flood of distinct
 *        addresses costs no memory beyond it
 */
@Validated
@ConfigurationProperties("queuegate.ingest.per-client")
public record PerClientProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("30") @Min(1) int enterBurst,
        @DefaultValue("30") @Min(1) int entersPerMinute,
        @DefaultValue("60") @Min(1) int pollBurst,
        @DefaultValue("10") @Min(1) int pollsPerSecond,
        @DefaultValue("200000") @Min(1) int maxClients) {
}
