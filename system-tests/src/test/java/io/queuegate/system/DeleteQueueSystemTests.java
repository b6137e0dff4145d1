package io.queuegate.system;

import java.time.Duration;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deleting a queue: it closes at once, everyone waiting reads EXPIRED, an admitted user still books, and once nobody
 * is left (a minute after the deletion at the earliest) its keys are gone and it leaves the list, while the
 * product's stock and bookings stay.
 */
class DeleteQueueSystemTests extends StackTests {

    private final long productId = ownProduct();

    @Test
    void aDeletedQueueClosesTellsItsLineExpiredAndGoesOnceNobodyIsLeft() {
        assertThat(this.stack.configure(this.productId, 1, 100, 600, true).status()).isEqualTo(200);
        assertThat(this.stack.setStock(this.productId, 10).status()).isEqualTo(200);
        String admitted = entered(this.productId, "admitted");
        awaitStatus(this.productId, admitted, "AVAILABLE");
        String waiting = entered(this.productId, "waiting");
        awaitStatus(this.productId, waiting, "WAITING");

        assertThat(delete().status()).isEqualTo(204);
        long deletedAt = queue().json().get("deletedAt").asLong();
        assertThat(delete().status()).as("again").isEqualTo(204);
        assertThat(queue().json().get("deletedAt").asLong()).as("unchanged").isEqualTo(deletedAt);

        awaitStatus(this.productId, waiting, "EXPIRED");
        await().atMost(Stack.ANSWER_WITHIN)
            .until(() -> this.stack.enter(this.productId, "too-late").status() == 409);
        assertThat(statusOf(this.productId, admitted)).isEqualTo("AVAILABLE");
        assertThat(this.stack.book(this.productId, admitted).status()).isEqualTo(201);

        QueueKeys keys = QueueKeys.of(this.productId);
        await().atMost(Duration.ofSeconds(90)).until(() -> queue().status() == 404);
        assertThat(this.stack.redis.hasKey(keys.waiting())).isFalse();
        assertThat(this.stack.redis.hasKey(keys.gone())).isFalse();
        assertThat(this.stack.redis.hasKey(keys.stats())).isFalse();
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).as("the product's stock stays").isEqualTo("9");
        assertThat(this.stack.redis.opsForHash().size(keys.bookings())).isEqualTo(1);
        assertThat(delete().text("code")).isEqualTo("queue_not_found");
    }

    private Reply delete() {
        return this.stack.admin("DELETE", "/api/v1/queues/" + this.productId);
    }

    private Reply queue() {
        return this.stack.admin("GET", "/api/v1/queues/" + this.productId);
    }
}
