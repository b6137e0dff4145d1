package io.queuegate.ingest.status;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How status polls of one product share Redis calls ({@link PollCoalescer}).
 *
 * @param maxBatch the most polls one {@code read_status} call answers; each token costs Redis three O(log n) reads
 *        inside the script (and a ZSCORE and a ZADD on queues with a poll budget or abandonment), so this bounds how
 *        long one call holds Redis
 * @param maxQueued polls of one product waiting for the next call; beyond it a poll is answered 503 at once
 * @param retryAfter what such a 503 tells the client to wait
 * @param deadline the longest a poll waits for its answer; past it the poll is answered 503 with Retry-After. Twice
 *        the Redis command timeout by default: a poll may wait for the call in flight and then for its own
 */
@Validated
@ConfigurationProperties("queuegate.ingest.status")
record StatusPollProperties(
        @DefaultValue("128") @Min(1) int maxBatch,
        @DefaultValue("4096") @Min(1) int maxQueued,
        @DefaultValue("1s") @NotNull Duration retryAfter,
        @DefaultValue("2s") @NotNull Duration deadline) {

    StatusPollProperties {
        if (deadline != null && (deadline.isNegative() || deadline.isZero())) {
            throw new IllegalArgumentException("queuegate.ingest.status.deadline must be positive, not " + deadline);
        }
    }
}
