package io.queuegate.ingest.leave;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.queuegate.ingest.IngestHttpTestSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** A leave is stored once: leaving again, gone already, answers the same and writes nothing to the log. */
class LeavesTests extends IngestHttpTestSupport {

    private static final String LEAVES = "queuegate.leaves";

    @Test
    void aSecondLeaveOfAPlaceGoneAlreadyWritesNothingToTheLog() {
        long product = newOpenQueue(1, 1);
        String user = "leaver-" + product;
        var entered = send(enterOf(this.port, product, user));
        assertThat(entered.statusCode()).isEqualTo(202);
        String token = JsonMapper.shared().readTree(entered.body()).get("token").asString();

        for (int i = 0; i < 3; i++) {
            assertThat(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/"
                    + product + "/entries/" + token)).DELETE()).statusCode()).isEqualTo(204);
        }

        assertThat(leavesOf(product, user)).isEqualTo(1);
    }

    /** The leaves of this user in the leaves topic, read from its start to its end. */
    private long leavesOf(long product, String user) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false))) {
            List<TopicPartition> partitions = consumer.partitionsFor(LEAVES, Duration.ofSeconds(20)).stream()
                .map((info) -> new TopicPartition(LEAVES, info.partition()))
                .toList();
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long found = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ends.entrySet().stream().anyMatch((end) -> consumer.position(end.getKey()) < end.getValue())) {
                assertThat(System.nanoTime()).as("the leaves topic read to its end in time").isLessThan(deadline);
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    JsonNode left = JsonMapper.shared().readTree(record.value());
                    if (left.path("productId").asLong() == product && user.equals(left.path("userId").asString())) {
                        found++;
                    }
                }
            }
            return found;
        }
    }
}
