package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.queuegate.core.queue.QueueKeys;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Every state change of a token reaches the audit topic, in order, and the relay trims what it sent. */
class AuditSystemTests {

    private final Stack stack = Stack.get();

    private final long productId = Stack.newProduct();

    @AfterEach
    void forget() {
        this.stack.forget(this.productId);
    }

    @Test
    void aSaleCanBeReplayedFromTheAuditTopic() {
        this.stack.configure(this.productId, 1, 1000, 600, true);
        this.stack.setStock(this.productId, 5);
        List<String> tokens = new ArrayList<>();
        for (String user : List.of("audit-a", "audit-b", "audit-c")) {
            tokens.add(this.stack.enter(this.productId, user).text("token"));
        }
        await().atMost(Duration.ofSeconds(20))
            .until(() -> "AVAILABLE".equals(this.stack.status(this.productId, tokens.get(0)).text("status")));
        assertThat(this.stack.book(this.productId, tokens.get(0)).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20))
            .until(() -> "AVAILABLE".equals(this.stack.status(this.productId, tokens.get(1)).text("status")));
        assertThat(this.stack.leave(this.productId, tokens.get(2)).status()).isEqualTo(204);

        List<JsonNode> events = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.stack.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "audit-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("queuegate.audit"));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key().equals(Long.toString(this.productId))) {
                        events.add(JsonMapper.shared().readTree(record.value()));
                    }
                }
                return events.stream().anyMatch(event -> event.get("type").asString().equals("LEFT"));
            });
        }
        List<String> trail = events.stream()
            .flatMap(event -> event.get("tokens").valueStream()
                .map(token -> event.get("type").asString() + ":" + tokens.indexOf(token.asString())))
            .toList();
        // Each token's own history, in order; how histories interleave depends on timing. Entering is not in the
        // trail: the entries topic already is that record. The events name tokens, though the line holds users.
        assertThat(trail).doesNotContain("ADMITTED:-1", "LEFT:-1", "CONSUMED:-1");
        assertThat(trail.stream().filter(step -> step.endsWith(":0"))).containsExactly("ADMITTED:0", "CONSUMED:0");
        assertThat(trail.stream().filter(step -> step.endsWith(":1"))).containsExactly("ADMITTED:1");
        assertThat(trail.stream().filter(step -> step.endsWith(":2"))).containsExactly("LEFT:2");
        assertThat(trail.stream().filter(step -> step.startsWith("ADMITTED"))).containsExactly("ADMITTED:0",
                "ADMITTED:1");
        assertThat(events).extracting(event -> event.get("eventId").asString()).doesNotHaveDuplicates();
        JsonNode consumed = events.stream().filter(e -> e.get("type").asString().equals("CONSUMED")).findFirst()
            .orElseThrow();
        assertThat(consumed.get("bookingId").asString()).startsWith(this.productId + "-");
        await().atMost(Duration.ofSeconds(10))
            .until(() -> this.stack.redis.opsForStream().size(QueueKeys.of(this.productId).audit()) == 0);
    }
}
