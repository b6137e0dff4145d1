package io.queuegate.system;

import java.time.Duration;
import java.util.List;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that loses a sale gets it back from the log, through the three services: the settings (the identity among
 * them), the stock as set minus what was booked, the bookings and so the used tokens, the leaves, the admitted
 * users' entries, and the line in log order. The loss is made by deleting the product's keys and the lines' epoch,
 * the Redis being shared.
 */
class SaleRestoreSystemTests extends StackTests {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    /** A product of this test's own with 10 units in stock and an open queue admitting {@code maxActive} at once. */
    private long saleOfTen(int maxActive) {
        long productId = openQueue(maxActive, 1000, 600);
        assertThat(this.stack.setStock(productId, 10).status()).isEqualTo(200);
        return productId;
    }

    @Test
    void aUsedTokenStaysUsedAndTheStockIsWhatItWas() {
        long productId = saleOfTen(2);
        QueueKeys keys = QueueKeys.of(productId);
        List<String> tokens = entered(productId, numbered("restored", 6));
        await().atMost(RESTORED).until(() -> "AVAILABLE".equals(statusOf(productId, tokens.get(1)))
                && "WAITING".equals(statusOf(productId, tokens.get(5))));
        assertThat(this.stack.book(productId, tokens.get(0)).status()).isEqualTo(201);
        assertThat(this.stack.leave(productId, tokens.get(4)).status()).isEqualTo(204);
        // token 2 takes the place token 0 freed; the audit relay has sent the admissions once the stream is empty
        await().atMost(RESTORED).until(() -> "AVAILABLE".equals(statusOf(productId, tokens.get(2)))
                && this.stack.redis.opsForStream().size(keys.audit()) == 0);
        Object bookingIds = this.stack.redis.opsForHash().keys(keys.bookings());

        this.stack.loseSale(productId);

        await().atMost(RESTORED).until(() -> "WAITING".equals(statusOf(productId, tokens.get(5))));
        assertThat(tokens.stream().map(token -> statusOf(productId, token)).toList())
            .containsExactly("EXPIRED", "AVAILABLE", "AVAILABLE", "WAITING", "EXPIRED", "WAITING");
        assertThat(this.stack.status(productId, tokens.get(3)).json().get("position").asInt()).isEqualTo(1);
        assertThat(this.stack.status(productId, tokens.get(5)).json().get("position").asInt()).isEqualTo(2);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("9");
        assertThat(this.stack.redis.opsForHash().keys(keys.bookings())).isEqualTo(bookingIds);
        assertThat(this.stack.redis.opsForHash().get(keys.settings(), "maxActive")).isEqualTo("2");
        // the identity too, from the settings the sale topic holds: lost, the line would be a visitors' one
        assertThat(this.stack.redis.opsForHash().get(keys.settings(), "identity")).isEqualTo("trusted");
        assertThat(this.stack.admin("GET", "/api/v1/queues/" + productId).text("identity")).isEqualTo("trusted");

        Reply again = this.stack.book(productId, tokens.get(0));
        assertThat(again.status()).isEqualTo(403);
        assertThat(again.text("code")).isEqualTo("token_not_admitted");
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("8");
    }

    @Test
    void theStockComesBackAsLastSetMinusWhatWasBookedSince() {
        long productId = saleOfTen(3);
        QueueKeys keys = QueueKeys.of(productId);
        List<String> tokens = entered(productId, numbered("restocked", 3));
        await().atMost(RESTORED).until(() -> tokens.stream().allMatch(t -> "AVAILABLE".equals(statusOf(productId, t))));
        assertThat(this.stack.book(productId, tokens.get(0)).status()).isEqualTo(201);
        // set again after one booking: only the bookings after this are taken off it
        assertThat(this.stack.setStock(productId, 50).status()).isEqualTo(200);
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("49");

        this.stack.loseSale(productId);

        await().atMost(RESTORED).until(() -> "49".equals(this.stack.redis.opsForValue().get(keys.stock()))
                && "AVAILABLE".equals(statusOf(productId, tokens.get(2))));
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(403);
        assertThat(this.stack.book(productId, tokens.get(2)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("48");
    }
}
