package io.queuegate.system;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.AfterEach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the system tests share: the running {@link Stack}, products of the test's own, and the steps most tests take
 * on them. Tests stay apart on the shared Redis by their products, so each product a test uses is forgotten after it
 * (after the test's own clean-up: JUnit runs a subclass's {@code @AfterEach} first).
 */
abstract class StackTests {

    final Stack stack = Stack.get();

    private final List<Long> products = new ArrayList<>();

    @AfterEach
    void forgetProducts() {
        this.products.forEach(this.stack::forget);
    }

    /** A new product of this test's own, forgotten after it. */
    long ownProduct() {
        long productId = Stack.newProduct();
        forgetAfterwards(productId);
        return productId;
    }

    /** Forgets, after the test, a product the test came by otherwise than from {@link #ownProduct()}. */
    void forgetAfterwards(long productId) {
        this.products.add(productId);
    }

    /**
     * A product of this test's own with an open queue of these settings (answered 200), in identity "trusted": the
     * test names its users ({@link #entered}).
     */
    long openQueue(int maxActive, int admitPerSecond, int ttlSeconds) {
        return openQueue(maxActive, admitPerSecond, ttlSeconds, "trusted");
    }

    /** The same in this identity. */
    long openQueue(int maxActive, int admitPerSecond, int ttlSeconds, String identity) {
        long productId = ownProduct();
        Reply configured = this.stack.configure(productId, maxActive, admitPerSecond, ttlSeconds, true, identity);
        assertThat(configured.status()).as(configured.response().body()).isEqualTo(200);
        return productId;
    }

    /** A visitor's first enter, with an empty body, which must be taken in (202); the token. */
    String visited(long productId) {
        Reply reply = this.stack.visit(productId, "{}");
        assertThat(reply.status()).as(reply.response().body()).isEqualTo(202);
        return reply.text("token");
    }

    /** {@code count} visitors' first enters, one after the other; their tokens, in that order. */
    List<String> visited(long productId, int count) {
        List<String> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(visited(productId));
        }
        return tokens;
    }

    /** The shop's backend enters the user, who must be taken in (202); the token. */
    String entered(long productId, String userId) {
        Reply reply = this.stack.enter(productId, userId);
        assertThat(reply.status()).as(reply.response().body()).isEqualTo(202);
        return reply.text("token");
    }

    /** Enters the users one after the other, in that order; their tokens, in the same order. */
    List<String> entered(long productId, List<String> users) {
        List<String> tokens = new ArrayList<>(users.size());
        for (String user : users) {
            tokens.add(entered(productId, user));
        }
        return tokens;
    }

    /** {@code prefix-0}, {@code prefix-1}, … : {@code count} users. */
    static List<String> numbered(String prefix, int count) {
        List<String> users = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            users.add(prefix + "-" + i);
        }
        return users;
    }

    /** What a poll of the token reads: PENDING, WAITING, AVAILABLE, EXPIRED, SOLD_OUT. */
    String statusOf(long productId, String token) {
        return this.stack.status(productId, token).text("status");
    }

    /** Polls the token until it reads {@code status}, for {@link Stack#ANSWER_WITHIN} at most. */
    void awaitStatus(long productId, String token, String status) {
        await().atMost(Stack.ANSWER_WITHIN).until(() -> status.equals(statusOf(productId, token)));
    }
}
