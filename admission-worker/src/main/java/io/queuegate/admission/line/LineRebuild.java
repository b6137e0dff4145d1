package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ListenerMetadata;
import org.springframework.kafka.listener.OffsetAndMetadataProvider;

/**
 * Decides, whenever the writer is given partitions, where it reads them from: the committed offset when it was
 * committed for the Redis that holds the lines now, the start of the partition otherwise, so that a Redis that lost
 * the lines gets them back from the log in log order. Offsets are committed with the id of the Redis they were
 * applied to ({@link LineEpoch}).
 */
final class LineRebuild implements ConsumerAwareRebalanceListener, OffsetAndMetadataProvider {

    private static final Logger log = LoggerFactory.getLogger(LineRebuild.class);

    private final LineEpoch epoch;

    LineRebuild(LineEpoch epoch) {
        this.epoch = epoch;
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
        if (redis.wasMissing()) {
            replay.addAll(partitions);
        }
        else {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                // offsets committed before the epoch existed carry none: they are trusted
                if (offset != null && !offset.metadata().isEmpty() && !offset.metadata().equals(redis.epoch())) {
                    replay.add(partition);
                }
            }
        }
        this.epoch.adopt(redis.epoch());
        if (!replay.isEmpty()) {
            log.warn("Redis does not hold what the committed offsets of {} say was applied (lines' epoch {}): "
                    + "rebuilding their lines from the start of the log", replay, redis.epoch());
            consumer.seekToBeginning(replay);
        }
    }

    @Override
    public OffsetAndMetadata provide(ListenerMetadata listener, long offset) {
        return new OffsetAndMetadata(offset, this.epoch.adopted());
    }
}
