package io.queuegate.ingest.front;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The HTTP front: Reactor Netty on the service port, answering enters and polls on its event loops and every other
 * request through Spring WebFlux in the same server ({@link IngestFront}), and the limits every client meets there.
 *
 * @param fastPaths whether enters and polls are answered by the front's own routes; off, Spring WebFlux answers them
 *        too, as it answers everything else (same answers, more CPU per request)
 * @param ioThreads the server's event loops; 0 for one per core
 * @param idleTimeout how long a kept-alive connection may wait silent for its next request before the front closes it
 * @param headerTimeout from a request's first byte to the end of its headers; a slower client is answered 408 and
 *        closed
 * @param bodyTimeout from the end of a request's headers to the end of its body; a slower client is answered 408 and
 *        closed (the front reads a body whole before anything acts on it)
 * @param maxConnections connections held at once; one past it is read only for a probe and otherwise answered 503
 *        with Retry-After and closed
 * @param maxConnectionsPerClient the same, for the connections of one remote address (many buyers may share one
 *        address behind a carrier's NAT, hence a generous default); a trusted proxy
 *        ({@code queuegate.ingest.trusted-proxies}) carries many clients, so this cap does not apply to it
 * @param maxInFlight requests being answered at once; past it a request (but a probe) is answered 503 with
 *        Retry-After at once
 * @param retryAfter the Retry-After of those 503s
 */
@Validated
@ConfigurationProperties("queuegate.ingest.front")
public record FrontProperties(
        @DefaultValue("true") boolean fastPaths,
        @DefaultValue("0") @Min(0) int ioThreads,
        @DefaultValue("60s") @NotNull Duration idleTimeout,
        @DefaultValue("10s") @NotNull Duration headerTimeout,
        @DefaultValue("10s") @NotNull Duration bodyTimeout,
        @DefaultValue("20000") @Min(1) int maxConnections,
        @DefaultValue("512") @Min(1) int maxConnectionsPerClient,
        @DefaultValue("8192") @Min(1) int maxInFlight,
        @DefaultValue("1s") @NotNull Duration retryAfter) {
}
