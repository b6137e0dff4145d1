package io.queuegate.ingest;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.queuegate.core.event.Topics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param topic the topic enter events go to
 * @param partitions partitions of that topic when ingest creates it
 * @param publishTimeout the longest an enter waits for Kafka's acknowledgement, from its arrival, before it is answered
 *        503: queued behind a round Kafka does not acknowledge, or in its own. 1.5 s answers within 2 s of the request
 *        when Kafka cannot take writes (a broker frozen, or fewer in-sync replicas than {@code min.insync.replicas})
 * @param retryAfter what a 503 or 429 tells the client to wait
 * @param maxInFlight enters waiting for Kafka at once; beyond it ingest sheds load with 503 at once
 * @param queueCacheTtl how often every queue ingest knows is read again in the background: the longest a change of its
 *        settings (a close, a deletion) goes unseen when its announcement on the queue changes channel was lost (a
 *        reconnection, a failover); an announced change is read at once. Also how long a product without a queue is
 *        remembered as such before its next enter reads it again
 * @param maxBodyBytes the largest request body accepted
 * @param maxEntriesPerRecord the most enters one Kafka record of a group commit carries (about 150 bytes each;
 *        the broker's default message limit is 1 MB)
 * @param leavesTopic the topic each leave is published to before it is acknowledged, so that a Redis that loses it
 *        does not bring the user back
 * @param retention how long the entries and leaves topics keep their records when ingest creates them: a Redis that
 *        loses the sale gets back only what is still there, so keep it at least as long as a sale
 * @param roundGather how long a group commit round that found fewer than {@code roundGatherBelow} enters waits for
 *        more before it is sent (0: at once). The producer and the broker pay per round, not per enter: on a machine
 *        whose CPU other work starved, 1 ms doubled the enters per round and took 27 % more enters per second; on a
 *        quiet one it left CPU idle in a closed loop of clients and took none more (docs/BENCHMARKS.md)
 * @param roundGatherBelow the round size from which a round goes out at once
 * @param trustedProxies the proxies in front of ingest, as CIDRs or addresses; empty by default. A request from one
 *        is known by the address its {@code X-Forwarded-For} gives (read from the right, past trusted proxies) for
 *        the limits per client, and its connections are not held to the cap per address; no header of anyone else's
 *        request is read
 * @param observeBurstPaths whether enters and polls get Spring's per-request HTTP observation (timer and span);
 *        off by default because it costs about 7 % of a poll's CPU (see BurstPathObservations)
 * @param enterKeys the keys a shop's backend enters its users with, in queues of identity "trusted"
 *        ({@code Authorization: Bearer <key>}); several, so that a key is rotated without a moment when neither
 *        works. Empty by default: no trusted enter is taken. Each is held to the secrets' policy and must not be the
 *        admin token
 * @param maxPassLifetime the furthest a pass's {@code exp} may be from the moment it is shown: a pass valid for longer
 *        is refused (403 {@code pass_invalid}), so that a pass that leaked, or one a shop signed for too long, stops
 *        working within this time. A shop signs its passes for less (minutes to hours, before a sale)
 */
@Validated
@ConfigurationProperties("queuegate.ingest")
public record IngestProperties(
        @DefaultValue("queuegate.entries") @Pattern(regexp = Topics.LEGAL_NAME) String topic,
        @DefaultValue("12") @Min(1) int partitions,
        @DefaultValue("1500ms") @NotNull Duration publishTimeout,
        @DefaultValue("1s") @NotNull Duration retryAfter,
        @DefaultValue("4096") @Min(1) int maxInFlight,
        @DefaultValue("1s") @NotNull Duration queueCacheTtl,
        @DefaultValue("4096") @Min(64) long maxBodyBytes,
        @DefaultValue("1000") @Min(1) @Max(5000) int maxEntriesPerRecord,
        @DefaultValue("queuegate.leaves") @Pattern(regexp = Topics.LEGAL_NAME) String leavesTopic,
        @DefaultValue("7d") @NotNull Duration retention,
        @DefaultValue("false") boolean observeBurstPaths,
        @DefaultValue("0ms") @NotNull Duration roundGather,
        @DefaultValue("64") @Min(1) int roundGatherBelow,
        @DefaultValue @NotNull List<String> trustedProxies,
        @DefaultValue @NotNull List<String> enterKeys,
        @DefaultValue("1d") @NotNull Duration maxPassLifetime) {

    public IngestProperties {
        if (maxPassLifetime != null && (maxPassLifetime.isNegative() || maxPassLifetime.isZero())) {
            throw new IllegalArgumentException("queuegate.ingest.max-pass-lifetime must be positive");
        }
    }
}
