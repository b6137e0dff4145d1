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

    /**
     * As an operator tried it: a queue nobody entered for a while, deleted (and another closed) through the admin
     * API, and an enter sent once a second later is refused, not taken by an ingest still serving its old copy of the
     * settings (it answered 202 before).
     */
    @Test
    void aQueueDeletedOrClosedAfterAQuietSpellRefusesAnEnterASecondLater() {
        long closed = ownProduct();
        assertThat(this.stack.configure(this.productId, 10, 100, 600, true).status()).isEqualTo(200);
        assertThat(this.stack.configure(closed, 10, 100, 600, true).status()).isEqualTo(200);
        assertThat(this.stack.enter(this.productId, "before-delete").status()).isEqualTo(202);
        assertThat(this.stack.enter(closed, "before-close").status()).isEqualTo(202);
        // nobody enters for 3 s, longer than ingest's queue-cache-ttl, and both queues stay open meanwhile
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
            .until(() -> queue().json().get("open").asBoolean());

        long changedAt = System.nanoTime();
        assertThat(delete().status()).isEqualTo(204);
        assertThat(this.stack.configure(closed, 10, 100, 600, false).status()).isEqualTo(200);
        // the enters go a second after the change, as an operator's would: that moment is the test's input
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
            .until(() -> System.nanoTime() - changedAt >= Duration.ofSeconds(1).toNanos());
        Reply afterDelete = this.stack.enter(this.productId, "a-second-after-delete");
        assertThat(afterDelete.status()).isEqualTo(409);
        assertThat(afterDelete.text("code")).isEqualTo("queue_closed");
        Reply afterClose = this.stack.enter(closed, "a-second-after-close");
        assertThat(afterClose.status()).isEqualTo(409);
        assertThat(afterClose.text("code")).isEqualTo("queue_closed");
    }

    private Reply delete() {
        return this.stack.admin("DELETE", "/api/v1/queues/" + this.productId);
    }

    private Reply queue() {
        return this.stack.admin("GET", "/api/v1/queues/" + this.productId);
    }
}
