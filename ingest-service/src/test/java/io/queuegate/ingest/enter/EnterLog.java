package io.queuegate.ingest.enter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.queuegate.ingest.IngestHttpTestSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** What the entries topic holds of a product: the proof that an enter was, or was not, written. */
final class EnterLog {

    private EnterLog() {
    }

    /** Every record of the product, read from the start of every partition to its current end. */
    static List<ConsumerRecord<String, String>> records(String brokers, long product) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        String topic = IngestHttpTestSupport.TOPIC;
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

    /** The tokens one record (a group commit) carries. */
    static List<String> tokensOf(ConsumerRecord<String, String> record) {
        List<String> tokens = new ArrayList<>();
        JsonMapper.shared().readTree(record.value()).get("entries").forEach((e) -> tokens.add(e.get("token").asString()));
        return tokens;
    }

    /** Every token the product's records carry, in log order. */
    static List<String> tokens(String brokers, long product) {
        return records(brokers, product).stream().flatMap((record) -> tokensOf(record).stream()).toList();
    }
}
