package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that loses a sale gets it back from the log, through the three services: the settings, the stock as set
 * minus what was booked, the bookings and so the used tokens, the leaves, the admitted users' entries, and the line
 * in log order. The loss is made by deleting the product's keys and the lines' epoch, the Redis being shared.
 */
class SaleRestoreSystemTests {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    private final Stack stack = Stack.get();

    private final List<Long> products = new ArrayList<>();

    @AfterEach
    void forgetProducts() {
        this.products.forEach(this.stack::forget);
    }

    private String status(long productId, String token) {
        return this.stack.status(productId, token).text("status");
    }

    @Test
    void aUsedTokenStaysUsedAndTheStockIsWhatItWas() {
        long productId = Stack.newProduct();
        this.products.add(productId);
        QueueKeys keys = QueueKeys.of(productId);
        assertThat(this.stack.configure(productId, 2, 1000, 600, true).status()).isEqualTo(200);
        assertThat(this.stack.setStock(productId, 10).status()).isEqualTo(200);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            tokens.add(this.stack.enter(productId, "restored-" + i).text("token"));
        }
        await().atMost(RESTORED).until(() -> "AVAILABLE".equals(status(productId, tokens.get(1)))
                && "WAITING".equals(status(productId, tokens.get(5))));
        assertThat(this.stack.book(productId, tokens.get(0)).status()).isEqualTo(201);
        assertThat(this.stack.leave(productId, tokens.get(4)).status()).isEqualTo(204);
        // token 2 takes the place token 0 freed; the audit relay has sent the admissions once the stream is empty
        await().atMost(RESTORED).until(() -> "AVAILABLE".equals(status(productId, tokens.get(2)))
                && this.stack.redis.opsForStream().size(keys.audit()) == 0);
        Object bookingIds = this.stack.redis.opsForHash().keys(keys.bookings());

        this.stack.redis.delete(keys.all());
        this.stack.redis.delete(QueueKeys.LINE_EPOCH);

        await().atMost(RESTORED).until(() -> "WAITING".equals(status(productId, tokens.get(5))));
        assertThat(tokens.stream().map(token -> status(productId, token)).toList())
            .containsExactly("EXPIRED", "AVAILABLE", "AVAILABLE", "WAITING", "EXPIRED", "WAITING");
        assertThat(this.stack.status(productId, tokens.get(3)).json().get("position").asInt()).isEqualTo(1);
        assertThat(this.stack.status(productId, tokens.get(5)).json().get("position").asInt()).isEqualTo(2);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("9");
        assertThat(this.stack.redis.opsForHash().keys(keys.bookings())).isEqualTo(bookingIds);
        assertThat(this.stack.redis.opsForHash().get(keys.settings(), "maxActive")).isEqualTo("2");

        Reply again = this.stack.book(productId, tokens.get(0));
        assertThat(again.status()).isEqualTo(403);
        assertThat(again.text("code")).isEqualTo("token_not_admitted");
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("8");
    }

    @Test
    void theStockComesBackAsLastSetMinusWhatWasBookedSince() {
        long productId = Stack.newProduct();
        this.products.add(productId);
        QueueKeys keys = QueueKeys.of(productId);
        assertThat(this.stack.configure(productId, 3, 1000, 600, true).status()).isEqualTo(200);
        assertThat(this.stack.setStock(productId, 10).status()).isEqualTo(200);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tokens.add(this.stack.enter(productId, "restocked-" + i).text("token"));
        }
        await().atMost(RESTORED).until(() -> tokens.stream().allMatch(t -> "AVAILABLE".equals(status(productId, t))));
        assertThat(this.stack.book(productId, tokens.get(0)).status()).isEqualTo(201);
        // set again after one booking: only the bookings after this are taken off it
        assertThat(this.stack.setStock(productId, 50).status()).isEqualTo(200);
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("49");

        this.stack.redis.delete(keys.all());
        this.stack.redis.delete(QueueKeys.LINE_EPOCH);

        await().atMost(RESTORED).until(() -> "49".equals(this.stack.redis.opsForValue().get(keys.stock()))
                && "AVAILABLE".equals(status(productId, tokens.get(2))));
        assertThat(this.stack.book(productId, tokens.get(1)).status()).isEqualTo(403);
        assertThat(this.stack.book(productId, tokens.get(2)).status()).isEqualTo(201);
        assertThat(this.stack.redis.opsForValue().get(keys.stock())).isEqualTo("48");
    }
}
