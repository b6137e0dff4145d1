package io.queuegate.booking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the bookings topic holds of a product: the proof that a booking was, or was not, stored. Reads up to the
 * topic's end at the time of the call, without waiting for more: a booking answered 201 is in the log already.
 */
public final class BookingLog {

    private BookingLog() {
    }

    /** The booking events of the product, each record's value, in log order. */
    public static List<JsonNode> events(String brokers, long product) {
        return records(brokers, product).stream().map((record) -> JsonMapper.shared().readTree(record.value())).toList();
    }

    /** Every record keyed by the product, read from the start of every partition to its current end. */
    public static List<ConsumerRecord<String, String>> records(String brokers, long product) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        String topic = BookingHttpTestSupport.TOPIC;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                .map((info) -> new TopicPartition(topic, info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 20_000;
            while (partitions.stream().anyMatch((p) -> consumer.position(p) < end.get(p))) {
                assertThat(System.currentTimeMillis()).as("read the topic to its end in time").isLessThan(deadline);
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (Long.toString(product).equals(record.key())) {
                        records.add(record);
                    }
                }
            }
            return records;
        }
    }
}
