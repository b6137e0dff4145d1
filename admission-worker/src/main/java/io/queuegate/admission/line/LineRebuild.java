package io.queuegate.admission.line;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import io.queuegate.admission.restore.SaleRestore;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ListenerMetadata;
import org.springframework.kafka.listener.OffsetAndMetadataProvider;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Decides, whenever the writer is given partitions, where it reads them from: the committed offset when it was
 * committed for the Redis that holds the lines now (same lines' id, same process), the start of the partition
 * otherwise, so that a Redis that lost the lines, or only its last writes, gets them back from the log in log order.
 * A Redis that kept its data is an older prefix of the history: the replay skips, per product, what its line
 * already applied, and appends what it lost after it. Offsets are committed with the id of the Redis they were
 * applied to ({@link LineEpoch}). Before a line is replayed, the rest of the sale is restored from the log
 * ({@link SaleRestore}).
 */
final class LineRebuild implements ConsumerAwareRebalanceListener, OffsetAndMetadataProvider {

    private static final Logger log = LoggerFactory.getLogger(LineRebuild.class);

    private static final Duration RESTORE_DEADLINE = Duration.ofMinutes(2);

    private final LineEpoch epoch;

    private final SaleRestore sale;

    LineRebuild(LineEpoch epoch, SaleRestore sale) {
        this.epoch = epoch;
        this.sale = sale;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        List<TopicPartition> replay = new ArrayList<>();
        LineEpoch.Reading redis;
        try {
            redis = this.epoch.read();
        }
        catch (RuntimeException ex) {
            // Without Redis nothing is appended; reading from the start costs a replay and never loses a place.
            log.warn("could not read the lines' epoch from Redis ({}); reading {} from the start", ex.toString(),
                    partitions);
            consumer.seekToBeginning(partitions);
            return;
        }
        if (redis.wasMissing() || this.epoch.wasFoundBehind()) {
            // lost everything, or answered an append with less than it had confirmed (a loss its id and process
            // do not show, such as a snapshot loaded into the same process)
            replay.addAll(partitions);
        }
        else {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                // offsets committed before the epoch existed carry none: they are trusted
                if (offset != null && !offset.metadata().isEmpty()
                        && !LineEpoch.appliedTo(offset.metadata(), redis)) {
                    replay.add(partition);
                }
            }
        }
        this.epoch.adopt(redis);
        if (!replay.isEmpty()) {
            log.warn("Redis may not hold all that the committed offsets of {} say was applied (lines' epoch {}, "
                    + "found {}, process {}): restoring the sale and reading the log's {} records again from the "
                    + "start", replay, redis.epoch(), redis.wasMissing() ? "missing" : "present", redis.run(),
                    records(consumer, replay));
            restoreSale(redis);
            consumer.seekToBeginning(replay);
        }
    }

    /** How many records the replay reads again: what a loss costs, for the operator reading the log. */
    private static long records(Consumer<?, ?> consumer, List<TopicPartition> partitions) {
        try {
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions);
            return ends.entrySet().stream().mapToLong(end -> end.getValue() - starts.getOrDefault(end.getKey(), 0L))
                .sum();
        }
        catch (RuntimeException ex) {
            // a broker that does not answer now: the count is only for the log
            return -1;
        }
    }

    /**
     * The rest of the sale comes back before any line is replayed: a used token's user must be gone before the
     * enter event that placed them is applied again. Retried while Kafka or Redis does not answer, within the
     * consumer's poll interval: the deadline is on the clock, since an attempt against a broker that does not answer
     * takes longer than the pause before the next one, and the back-off counts only its pauses.
     */
    private void restoreSale(LineEpoch.Reading redis) {
        long deadline = System.nanoTime() + RESTORE_DEADLINE.toNanos();
        BackOffExecution pauses = restorePauses().start();
        while (true) {
            try {
                this.sale.restore(redis.epoch(), redis.wasMissing());
                return;
            }
            catch (RuntimeException ex) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not restore the sale before rebuilding the lines", ex);
                }
                long pause = pauses.nextBackOff();
                log.warn("restoring the sale failed, trying again in {} ms: {}", pause, ex.toString());
                try {
                    Thread.sleep(pause);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while restoring the sale", interrupted);
                }
            }
        }
    }

    /** 100 ms, doubling up to 5 s, as the writer's own retries ({@link ListenerConfiguration}). */
    private static BackOff restorePauses() {
        ExponentialBackOff backOff = new ExponentialBackOff(100, 2);
        backOff.setMaxInterval(5_000);
        return backOff;
    }

    @Override
    public OffsetAndMetadata provide(ListenerMetadata listener, long offset) {
        return new OffsetAndMetadata(offset, this.epoch.metadata());
    }
}
