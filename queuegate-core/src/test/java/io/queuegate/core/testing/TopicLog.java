package io.queuegate.core.testing;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a topic holds of one product, read from the start of every partition to its end at the time of the call,
 * without waiting for more: a write answered as durable is in the log already. Committed records only, as the
 * services' consumers read them.
 */
public final class TopicLog {

    private TopicLog() {
    }

    /** Every record of the topic keyed by the product, in log order within each partition. */
    public static List<ConsumerRecord<String, String>> records(String brokers, String topic, long product) {
        return records(brokers, topic, Long.toString(product));
    }

    /** Every record of the topic with the key, in log order within each partition. */
    public static List<ConsumerRecord<String, String>> records(String brokers, String topic, String key) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
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
                    if (key.equals(record.key())) {
                        records.add(record);
                    }
                }
            }
            return records;
        }
    }
}
