package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A token buys exactly once and stock never oversells, through the booking service's HTTP API. */
class BookingSystemTests extends StackTests {

    /** Configures a queue, enters {@code users} and waits until the first {@code maxActive} are admitted. */
    private List<String> admitted(long productId, int users, int maxActive, int ttlSeconds) {
        assertThat(this.stack.configure(productId, maxActive, 1000, ttlSeconds, true).status()).isEqualTo(200);
        List<String> tokens = entered(productId, numbered("buyer", users));
        await().atMost(Duration.ofSeconds(30)).until(() -> tokens.stream().limit(maxActive)
            .allMatch(token -> "AVAILABLE".equals(statusOf(productId, token))));
        await().atMost(Duration.ofSeconds(30)).until(() -> tokens.stream().skip(maxActive)
            .allMatch(token -> "WAITING".equals(statusOf(productId, token))));
        return tokens;
    }

    private static List<Reply> race(List<Callable<Reply>> calls) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reply>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Callable<Reply> call : calls) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
        }
        List<Reply> replies = new ArrayList<>();
        for (Future<Reply> future : futures) {
            replies.add(future.get());
        }
        return replies;
    }

    private static long count(List<Reply> replies, int status) {
        return replies.stream().filter(reply -> reply.status() == status).count();
    }

    @Test
    void fiftyAdmittedUsersRaceForTenUnits() throws Exception {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 50, 50, 600);
        assertThat(this.stack.setStock(productId, 10).status()).isEqualTo(200);

        List<Reply> replies = race(tokens.stream().<Callable<Reply>>map(token -> () -> this.stack.book(productId, token)).toList());

        assertThat(count(replies, 201)).isEqualTo(10);
        assertThat(count(replies, 409)).isEqualTo(40);
        assertThat(replies.stream().filter(r -> r.status() == 409)).allMatch(r -> "sold_out".equals(r.text("code")));
        assertThat(this.stack.redis.opsForValue().get(QueueKeys.of(productId).stock())).isEqualTo("0");
        assertThat(this.stack.redis.opsForHash().size(QueueKeys.of(productId).bookings())).isEqualTo(10);
        // Sold out leaves the token usable: with stock back, a losing token books.
        this.stack.setStock(productId, 1);
        String loser = tokens.get(replies.indexOf(replies.stream().filter(r -> r.status() == 409).findFirst().orElseThrow()));
        assertThat(this.stack.book(productId, loser).status()).isEqualTo(201);
    }

    @Test
    void oneTokenPostedTenTimesAtOnceBooksOnce() throws Exception {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 3, 3, 600);
        this.stack.setStock(productId, 100);

        List<Reply> replies = race(java.util.stream.IntStream.range(0, 10)
            .<Callable<Reply>>mapToObj(i -> () -> this.stack.book(productId, tokens.getFirst())).toList());

        assertThat(count(replies, 201)).isEqualTo(1);
        assertThat(count(replies, 403)).isEqualTo(9);
        assertThat(replies.stream().filter(r -> r.status() == 403)).allMatch(r -> "token_not_admitted".equals(r.text("code")));
        assertThat(this.stack.redis.opsForValue().get(QueueKeys.of(productId).stock())).isEqualTo("99");

        Reply created = replies.stream().filter(r -> r.status() == 201).findFirst().orElseThrow();
        assertThat(created.header("Location")).endsWith("/api/v1/bookings/" + created.text("bookingId"));
        Reply read = this.stack.send("GET", Stack.url(this.stack.booking, "/api/v1/bookings/" + created.text("bookingId")),
                null, null, Map.of());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.text("userId")).isEqualTo("buyer-0");
        assertThat(read.json().get("quantity").asInt()).isEqualTo(1);
        assertThat(statusOf(productId, tokens.getFirst())).isEqualTo("EXPIRED");
        assertThat(this.stack.send("GET", Stack.url(this.stack.booking, "/api/v1/bookings/" + productId + "-nope"),
                null, null, Map.of()).status()).isEqualTo(404);
    }

    @Test
    void onlyAnAdmittedTokenOfThisProductGetsThrough() {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 3, 1, 600);
        long other = ownProduct();
        List<String> otherTokens = admitted(other, 1, 1, 600);
        this.stack.setStock(productId, 100);
        this.stack.setStock(other, 100);

        List<Reply> refused = List.of(
                this.stack.book(productId, tokens.get(2)),                       // still waiting
                this.stack.book(productId, "forged-token-ABCDEFGHIJKLMNOP"),     // not issued here
                this.stack.book(productId, otherTokens.getFirst()),              // another product's
                this.stack.book(other, tokens.getFirst()));                      // this product's, elsewhere
        for (Reply reply : refused) {
            assertThat(reply.status()).as(reply.response().body()).isEqualTo(403);
            assertThat(reply.text("code")).isEqualTo("token_not_admitted");
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        }
        assertThat(this.stack.redis.opsForValue().get(QueueKeys.of(productId).stock())).isEqualTo("100");
        assertThat(this.stack.book(other, otherTokens.getFirst()).status()).isEqualTo(201);
    }

    @Test
    void anExpiredTokenIsRefused() {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 1, 1, 1);
        this.stack.setStock(productId, 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> "EXPIRED".equals(statusOf(productId, tokens.getFirst())));
        Reply reply = this.stack.book(productId, tokens.getFirst());
        assertThat(reply.status()).isEqualTo(403);
        assertThat(this.stack.redis.opsForValue().get(QueueKeys.of(productId).stock())).isEqualTo("10");
    }

    @Test
    void aBookingFreesTheSlotForTheNextUser() {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 3, 1, 600);
        this.stack.setStock(productId, 10);
        assertThat(statusOf(productId, tokens.get(1))).isEqualTo("WAITING");
        assertThat(this.stack.book(productId, tokens.getFirst()).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(() -> "AVAILABLE".equals(statusOf(productId, tokens.get(1))));
        assertThat(statusOf(productId, tokens.get(2))).isEqualTo("WAITING");
    }

    @Test
    void badInputIsRefusedAndLeavesTheTokenUsable() {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 1, 1, 600);
        this.stack.setStock(productId, 10);
        String url = Stack.url(this.stack.booking, "/api/v1/bookings");
        String token = tokens.getFirst();
        List<String> bodies = List.of("[]", "{not json", "", "{\"productId\":\"x\",\"token\":\"" + token + "\"}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"quantity\":0}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"quantity\":-3}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"quantity\":5}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"quantity\":\"two\"}",
                "{\"productId\":" + productId + "}", "{\"productId\":-1,\"token\":\"" + token + "\"}",
                "{\"token\":\"" + token + "\"}",
                "{\"productId\":\"" + productId + "\",\"token\":\"" + token + "\"}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"quantity\":1.5}",
                "{\"productId\":" + productId + ",\"token\":\"" + token + "\",\"productId\":1}");
        for (String body : bodies) {
            Reply reply = this.stack.send("POST", url, body, "application/json", Map.of());
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.text("code")).isEqualTo("invalid_request");
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        }
        assertThat(this.stack.send("POST", url, "productId=1", "text/plain", Map.of()).status()).isEqualTo(415);
        assertThat(this.stack.send("PUT", Stack.url(this.stack.booking, "/api/v1/products/" + productId + "/stock"),
                "{\"available\":5}", "application/json", Map.of()).status()).isEqualTo(401);
        assertThat(statusOf(productId, token)).isEqualTo("AVAILABLE");
        assertThat(this.stack.book(productId, token).status()).isEqualTo(201);
    }

    @Test
    void aBookingKafkaDoesNotStoreIsUndone() {
        long productId = ownProduct();
        List<String> tokens = admitted(productId, 1, 1, 600);
        this.stack.setStock(productId, 10);
        // A second booking service whose broker never answers: every publish fails.
        try (ConfigurableApplicationContext cutOff = this.stack.start(io.queuegate.booking.BookingApplication.class,
                io.queuegate.booking.BookingApplication.CONFIG_NAME, "spring.kafka.bootstrap-servers=127.0.0.1:1",
                "spring.kafka.admin.auto-create=false", "queuegate.booking.publish-timeout=1s")) {
            Reply reply = this.stack.book(cutOff, productId, tokens.getFirst(), 2);
            assertThat(reply.status()).isEqualTo(503);
            assertThat(reply.header("Retry-After")).isNotNull();
            assertThat(reply.text("code")).isEqualTo("unavailable");
        }
        assertThat(this.stack.redis.opsForValue().get(QueueKeys.of(productId).stock())).isEqualTo("10");
        assertThat(this.stack.redis.opsForHash().size(QueueKeys.of(productId).bookings())).isZero();
        assertThat(statusOf(productId, tokens.getFirst())).isEqualTo("AVAILABLE");
        assertThat(this.stack.book(productId, tokens.getFirst()).status()).isEqualTo(201);
    }
}
