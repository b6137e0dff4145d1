package io.queuegate.admission.reservation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import io.queuegate.admission.AdmissionProperties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;

/**
 * Which bookings of a product the bookings topic holds: its partition (the booking service keys each booking by its
 * product, so one product's bookings are in one partition, in order) read from a time on to the end it has when the
 * read begins. Partitions are assigned, not subscribed, and nothing is committed: the read is a question, not a
 * consumer group's progress.
 */
@Component
class BookingsLog {

    /** The longest a read may take; a log that cannot be read decides nothing, and the round is tried again. */
    private static final Duration WITHIN = Duration.ofSeconds(30);

    private static final Duration POLL = Duration.ofMillis(200);

    private final ConsumerFactory<String, byte[]> consumers;

    private final String topic;

    private final JsonMapper json;

    BookingsLog(ConsumerFactory<String, byte[]> consumers, AdmissionProperties properties, JsonMapper json) {
        this.consumers = consumers;
        this.topic = properties.bookingsTopic();
        this.json = json;
    }

    /**
     * @param fromMillis the earliest record timestamp read (the booking service's clock)
     * @return the ids of the product's bookings stored from then to the end of the topic
     * @throws IllegalStateException when the end was not reached in time
     */
    Set<String> bookingIds(long productId, long fromMillis) {
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        Set<String> found = new HashSet<>();
        try (Consumer<String, byte[]> consumer = this.consumers.createConsumer(null, "reservation-sweeper", null,
                overrides)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(this.topic, WITHIN);
            if (partitions == null || partitions.isEmpty()) {
                // no topic, no booking in it
                return found;
            }
            TopicPartition partition = new TopicPartition(this.topic, partitionOf(productId, partitions.size()));
            consumer.assign(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), WITHIN).get(partition);
            OffsetAndTimestamp from = consumer.offsetsForTimes(Map.of(partition, Math.max(0, fromMillis)), WITHIN)
                .get(partition);
            consumer.seek(partition, from == null ? end : from.offset());
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (consumer.position(partition) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the end of " + partition + " (" + end + ") was not reached within "
                            + WITHIN);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    if (record.offset() < end && record.value() != null) {
                        bookingId(record.value(), productId).ifPresent(found::add);
                    }
                }
            }
        }
        return found;
    }

    /** The booking's id when the record is a booking of the product; an unreadable record books nothing. */
    private Optional<String> bookingId(byte[] value, long productId) {
        try {
            JsonNode booking = this.json.readTree(value);
            return booking.path("productId").asLong() == productId && booking.path("bookingId").isString()
                    ? Optional.of(booking.path("bookingId").asString()) : Optional.empty();
        }
        catch (JacksonException ex) {
            return Optional.empty();
        }
    }

    /** The partition Kafka's default partitioner gives the product's key, as the booking service sends it. */
    static int partitionOf(long productId, int partitions) {
        return Utils.toPositive(Utils.murmur2(Long.toString(productId).getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
