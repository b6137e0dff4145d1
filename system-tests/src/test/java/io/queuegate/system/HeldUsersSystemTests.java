package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Held users: the operator holds a user, who goes on reading WAITING with a position while everyone around is
 * admitted, and is admitted once released. Holds come back after Redis loses the sale (they are in the log first),
 * and a release made before the loss stays released.
 */
class HeldUsersSystemTests extends StackTests {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    private final long productId = ownProduct();

    @Test
    void aHeldUserWaitsWhileOthersAreAdmittedAndIsAdmittedOnceReleased() {
        assertThat(this.stack.configure(this.productId, 100, 1000, 600, true).status()).isEqualTo(200);
        assertThat(hold("PUT", "suspect").status()).isEqualTo(204);
        assertThat(hold("PUT", "suspect").status()).as("again").isEqualTo(204);

        String first = entered(this.productId, "before");
        String suspect = entered(this.productId, "suspect");
        List<String> others = entered(this.productId, numbered("after", 5));
        // many steps run while the others are admitted; the held user stays first in line
        await().atMost(Stack.ANSWER_WITHIN).until(() -> others.stream().allMatch(this::available));
        assertThat(available(first)).isTrue();
        Reply waiting = this.stack.status(this.productId, suspect);
        assertThat(waiting.text("status")).isEqualTo("WAITING");
        assertThat(waiting.json().get("position").asInt()).isEqualTo(1);
        String late = entered(this.productId, "late");
        awaitStatus(this.productId, late, "AVAILABLE");
        assertThat(statusOf(this.productId, suspect)).isEqualTo("WAITING");
        assertThat(list()).containsExactly("suspect");

        assertThat(hold("DELETE", "suspect").status()).isEqualTo(204);
        awaitStatus(this.productId, suspect, "AVAILABLE");
        assertThat(list()).isEmpty();
        assertThat(hold("DELETE", "suspect").status()).as("again").isEqualTo(204);
    }

    @Test
    void holdsAndReleasesComeBackFromTheLogAfterRedisLosesTheSale() {
        assertThat(this.stack.configure(this.productId, 100, 1000, 600, true).status()).isEqualTo(200);
        assertThat(hold("PUT", "kept").status()).isEqualTo(204);
        assertThat(hold("PUT", "let-go").status()).isEqualTo(204);
        assertThat(hold("DELETE", "let-go").status()).isEqualTo(204);
        // ingest learns the queue with a first enter, and goes on taking enters into the log while Redis is gone
        String other = entered(this.productId, "other");
        awaitStatus(this.productId, other, "AVAILABLE");

        this.stack.loseSale(this.productId);
        String kept = entered(this.productId, "kept");
        String letGo = entered(this.productId, "let-go");

        await().atMost(RESTORED).until(() -> available(other) && available(letGo));
        assertThat(statusOf(this.productId, kept)).isEqualTo("WAITING");
        assertThat(list()).containsExactly("kept");
    }

    @Test
    void badHoldsAreRefusedAndChangeNothing() {
        assertThat(hold("PUT", "nobody").text("code")).as("no queue").isEqualTo("queue_not_found");
        assertThat(this.stack.configure(this.productId, 100, 1000, 600, true).status()).isEqualTo(200);
        assertThat(hold("PUT", "not%20valid").text("code")).isEqualTo("invalid_request");
        assertThat(hold("PUT", "x".repeat(65)).status()).isEqualTo(400);
        Reply anonymous = this.stack.send("PUT", Stack.url(this.stack.worker, heldPath("someone")), null, null,
                Map.of());
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(list()).isEmpty();
        assertThat(this.stack.redis.hasKey(QueueKeys.of(this.productId).held())).isFalse();
    }

    private Reply hold(String method, String userId) {
        return this.stack.admin(method, heldPath(userId));
    }

    private String heldPath(String userId) {
        return "/api/v1/queues/" + this.productId + "/held-users/" + userId;
    }

    private List<String> list() {
        Reply reply = this.stack.admin("GET", "/api/v1/queues/" + this.productId + "/held-users");
        assertThat(reply.status()).isEqualTo(200);
        List<String> users = new ArrayList<>();
        reply.json().get("users").forEach((user) -> users.add(user.asString()));
        return users;
    }

    private boolean available(String token) {
        return "AVAILABLE".equals(statusOf(this.productId, token));
    }
}
