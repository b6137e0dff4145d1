package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Every state change of a token reaches the audit topic, in order, and the relay trims what it sent. */
class AuditSystemTests extends StackTests {

    private final long productId = ownProduct();

    @Test
    void aSaleCanBeReplayedFromTheAuditTopic() {
        this.stack.configure(this.productId, 1, 1000, 600, true);
        this.stack.setStock(this.productId, 5);
        List<String> tokens = entered(this.productId, List.of("audit-a", "audit-b", "audit-c"));
        awaitStatus(this.productId, tokens.get(0), "AVAILABLE");
        assertThat(this.stack.book(this.productId, tokens.get(0)).status()).isEqualTo(201);
        awaitStatus(this.productId, tokens.get(1), "AVAILABLE");
        assertThat(this.stack.leave(this.productId, tokens.get(2)).status()).isEqualTo(204);

        List<JsonNode> events = new ArrayList<>();
        this.stack.readFromStart(List.of("queuegate.audit"), this.productId,
                (record) -> events.add(JsonMapper.shared().readTree(record.value())),
                () -> events.stream().anyMatch(event -> event.get("type").asString().equals("LEFT")));
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
