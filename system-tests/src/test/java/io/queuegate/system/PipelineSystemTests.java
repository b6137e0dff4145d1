package io.queuegate.system;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** enter → Kafka → waiting → entry → status, through the services' HTTP APIs. */
class PipelineSystemTests extends StackTests {

    /**
     * Enters {@code users} numbered users one after the other and waits until the line has taken them all in and
     * admitted the first; their tokens, in line order.
     */
    private List<String> settledLine(long productId, String prefix, int users) {
        List<String> tokens = entered(productId, numbered(prefix, users));
        awaitSettled(productId, tokens);
        await().until(() -> "AVAILABLE".equals(statusOf(productId, tokens.getFirst())));
        return tokens;
    }

    private void awaitSettled(long productId, List<String> tokens) {
        await().atMost(Duration.ofSeconds(60)).until(() -> enteredTotal(productId) == tokens.size());
    }

    /**
     * Takes the steps while the admission worker's waiting writer stands still, so that what is entered meanwhile
     * stays PENDING; starts it again, whatever happens. What the steps return.
     */
    private <T> T withTheWriterStopped(Supplier<T> steps) {
        MessageListenerContainer writer = this.stack.worker.getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer("waiting-writer");
        writer.stop();
        try {
            return steps.get();
        }
        finally {
            writer.start();
        }
    }

    /** How many users the line has taken in. */
    private long enteredTotal(long productId) {
        Object entered = this.stack.redis.opsForHash().get(QueueKeys.of(productId).stats(), "enteredTotal");
        return entered == null ? 0 : Long.parseLong(entered.toString());
    }

    @Test
    void sequentialEntersComeOutInTheOrderTheyEntered() {
        long productId = openQueue(1, 1000, 600);
        List<String> tokens = settledLine(productId, "seq", 1000);
        for (int i = 1; i < tokens.size(); i++) {
            Reply status = this.stack.status(productId, tokens.get(i));
            assertThat(status.text("status")).isEqualTo("WAITING");
            assertThat(status.json().get("position").asLong()).isEqualTo(i);
        }
    }

    @Test
    void concurrentEntersGetUniquePositionsOneToN() throws Exception {
        // a sale's opening: visitors, each entering with an empty body and given an id of its own
        long productId = openQueue(1, 1000, 600, "visitor");
        int users = 10_000;
        Semaphore concurrency = new Semaphore(200);
        List<Future<String>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < users; i++) {
                results.add(pool.submit(() -> {
                    concurrency.acquire();
                    try {
                        return visited(productId);
                    }
                    finally {
                        concurrency.release();
                    }
                }));
            }
        }
        List<String> tokens = new ArrayList<>();
        for (Future<String> result : results) {
            tokens.add(result.get());
        }
        assertThat(new HashSet<>(tokens)).hasSize(users);
        awaitSettled(productId, tokens);
        await().until(() -> this.stack.redis.opsForZSet().zCard(QueueKeys.of(productId).entry()) == 1);

        Set<Long> positions = new HashSet<>();
        int available = 0;
        for (String token : tokens) {
            Reply status = this.stack.status(productId, token);
            if ("AVAILABLE".equals(status.text("status"))) {
                available++;
            }
            else {
                assertThat(status.text("status")).isEqualTo("WAITING");
                positions.add(status.json().get("position").asLong());
            }
        }
        assertThat(available).isEqualTo(1);
        assertThat(positions).containsExactlyInAnyOrderElementsOf(
                IntStream.rangeClosed(1, users - 1).mapToObj(Long::valueOf).toList());
    }

    @Test
    void aRedeliveredBatchChangesNothing() {
        long productId = openQueue(1, 1000, 600);
        // maxActive 1: once the head is admitted, the line stands still.
        List<String> tokens = settledLine(productId, "redo", 50);
        String waiting = QueueKeys.of(productId).waiting();
        Set<TypedTuple<String>> before = this.stack.redis.opsForZSet().rangeWithScores(waiting, 0, -1);

        @SuppressWarnings("unchecked")
        KafkaTemplate<String, EntryRequested> kafka = this.stack.ingest.getBean(KafkaTemplate.class);
        for (String token : tokens) {
            kafka.send(Stack.ENTRIES_TOPIC, Long.toString(productId),
                    new EntryRequested(productId, token, "redo", "replay", System.currentTimeMillis()));
        }
        kafka.flush();
        // A later event on the same partition is applied only after the replayed ones.
        String marker = entered(productId, "redo-marker");
        await().until(() -> "WAITING".equals(statusOf(productId, marker)));

        Set<TypedTuple<String>> after = this.stack.redis.opsForZSet().rangeWithScores(waiting, 0, -1);
        assertThat(after).hasSize(before.size() + 1);
        assertThat(after).containsAll(before);
        assertThat(this.stack.status(productId, marker).json().get("position").asLong()).isEqualTo(before.size() + 1);
    }

    @Test
    void aTokenIsPendingWhileTheConsumerIsHeldBack() {
        long productId = openQueue(5, 1000, 600);
        withTheWriterStopped(() -> {
            String token = entered(productId, "held");
            for (int i = 0; i < 5; i++) {
                assertThat(statusOf(productId, token)).isEqualTo("PENDING");
            }
            assertThat(this.stack.status(productId, token).json().get("pollAfterMs").asLong()).isPositive();
            return token;
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> enteredTotal(productId) == 1);
    }

    @Test
    void reEntryKeepsTheSameTokenAndPlace() {
        long productId = openQueue(1, 1000, 600);
        List<String> tokens = settledLine(productId, "again", 5);
        assertThat(entered(productId, "again-3")).isEqualTo(tokens.get(3));
        assertThat(entered(productId, "again-0")).isEqualTo(tokens.get(0));
        String marker = entered(productId, "again-marker");
        await().until(() -> "WAITING".equals(statusOf(productId, marker)));
        assertThat(this.stack.status(productId, tokens.get(3)).json().get("position").asLong()).isEqualTo(3);
        assertThat(this.stack.status(productId, marker).json().get("position").asLong()).isEqualTo(5);
        assertThat(statusOf(productId, tokens.get(0))).isEqualTo("AVAILABLE");
    }

    @Test
    void aVisitorEnteringAgainWithItsTokenKeepsThePlace() {
        long productId = openQueue(1, 1000, 600, "visitor");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            tokens.add(visited(productId));
        }
        awaitSettled(productId, tokens);
        Reply again = this.stack.visit(productId, "{\"token\":\"" + tokens.get(2) + "\"}");
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.text("token")).isEqualTo(tokens.get(2));
        String marker = visited(productId);
        await().until(() -> "WAITING".equals(statusOf(productId, marker)));
        assertThat(this.stack.status(productId, tokens.get(2)).json().get("position").asLong()).isEqualTo(2);
        assertThat(this.stack.status(productId, marker).json().get("position").asLong()).isEqualTo(4);
        assertThat(enteredTotal(productId)).isEqualTo(5);

        // a visitor's line names nobody, and takes no token of another line
        Reply named = this.stack.visit(productId, "{\"userId\":\"someone\"}");
        assertThat(named.status()).isEqualTo(400);
        assertThat(named.text("code")).isEqualTo("user_id_not_accepted");
        long other = openQueue(1, 1000, 600, "visitor");
        Reply foreign = this.stack.visit(other, "{\"token\":\"" + tokens.get(2) + "\"}");
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.text("code")).isEqualTo("invalid_token");
    }

    @Test
    void admittedEntriesExpireAndFreeTheirSlots() {
        long productId = openQueue(2, 1000, 1);
        List<String> tokens = entered(productId, numbered("ttl", 4));
        await().atMost(Duration.ofSeconds(20)).until(() -> "AVAILABLE".equals(statusOf(productId, tokens.get(0))));
        Reply available = this.stack.status(productId, tokens.get(0));
        assertThat(available.json().get("expiresAt").asLong()).isGreaterThan(System.currentTimeMillis());
        assertThat(available.json().get("position").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(20)).until(() -> tokens.stream().map(t -> statusOf(productId, t)).toList()
            .equals(List.of("EXPIRED", "EXPIRED", "AVAILABLE", "AVAILABLE")));
    }

    @Test
    void leavingFreesThePlaceAndTheOnesBehindMoveUp() {
        long productId = openQueue(1, 1000, 600);
        List<String> tokens = settledLine(productId, "leave", 4);
        assertThat(this.stack.leave(productId, tokens.get(1)).status()).isEqualTo(204);
        assertThat(statusOf(productId, tokens.get(1))).isEqualTo("EXPIRED");
        assertThat(this.stack.status(productId, tokens.get(2)).json().get("position").asLong()).isEqualTo(1);

        assertThat(this.stack.leave(productId, tokens.get(0)).status()).isEqualTo(204);
        await().until(() -> "AVAILABLE".equals(statusOf(productId, tokens.get(2))));
        assertThat(this.stack.status(productId, tokens.get(3)).json().get("position").asLong()).isEqualTo(1);
    }

    @Test
    void aTokenThatLeftWhilePendingNeverJoinsTheLine() {
        long productId = openQueue(5, 1000, 600);
        String token = withTheWriterStopped(() -> {
            String left = entered(productId, "gone-early");
            assertThat(this.stack.leave(productId, left).status()).isEqualTo(204);
            return left;
        });
        String marker = entered(productId, "after-gone");
        await().atMost(Duration.ofSeconds(30)).until(() -> "AVAILABLE".equals(statusOf(productId, marker)));
        assertThat(statusOf(productId, token)).isEqualTo("EXPIRED");
    }

    @Test
    void unknownAndClosedQueuesRefuseEntry() {
        Reply unknown = this.stack.enter(Stack.newProduct(), "nobody");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.text("code")).isEqualTo("queue_not_found");

        long closed = ownProduct();
        this.stack.configure(closed, 5, 5, 60, false);
        Reply refused = this.stack.enter(closed, "late");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.text("code")).isEqualTo("queue_closed");
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
    }

    @Test
    void forgedTamperedAndForeignTokensAreRefusedWithoutTouchingTheLine() {
        long productId = openQueue(5, 1000, 600);
        long other = openQueue(5, 1000, 600);
        String token = entered(productId, "owner");
        String tampered = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A");
        for (String bad : List.of("forged-token-abcdefghijklmnop", tampered, "x".repeat(129), "%00", "a%2Fb", "..")) {
            Reply reply = this.stack.status(productId, bad);
            assertThat(reply.status()).as(bad).isBetween(400, 404);
            if (reply.status() == 400) {
                assertThat(reply.text("code")).as(bad).isIn("invalid_token", "invalid_request");
            }
        }
        Reply tamperedReply = this.stack.status(productId, tampered);
        assertThat(tamperedReply.text("code")).isEqualTo("invalid_token");
        Reply foreign = this.stack.status(other, token);
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.text("code")).isEqualTo("invalid_token");
        assertThat(this.stack.leave(other, token).status()).isEqualTo(400);
        QueueKeys otherKeys = QueueKeys.of(other);
        assertThat(this.stack.redis.countExistingKeys(List.of(otherKeys.waiting(), otherKeys.entry(),
                otherKeys.gone()))).isZero();
    }

    @Test
    void badInputIsRefusedAndWritesNothing() {
        long productId = openQueue(5, 1000, 600);
        String path = "/api/v1/queues/" + productId + "/entries";
        String json = "application/json";
        // sent as the shop's backend, with the enter key: refused for what they say, whoever says it
        List<Reply> replies = List.of(
                post(path, "{not json"),
                post(path, "{\"userId\":\"" + "x".repeat(65) + "\"}"),
                post(path, "{\"userId\":\"\"}"),
                post(path, "{\"userId\":\"   \"}"),
                post(path, "{\"userId\":\"bad user/\\u0000\"}"),
                post(path, "{\"userId\":\"a'; DROP\"}"),
                post(path, "{\"userId\":[\"a\"]}"),
                post(path, "{\"userId\":12345}"),
                post(path, "{\"userId\":true}"),
                post(path, "{\"userId\":\"a\",\"userId\":\"b\"}"),
                post(path, "{\"userId\":\"a\"} {}"),
                post(path, "{\"token\":\"t\",\"userId\":\"a\"}"),
                post(path, ""),
                post("/api/v1/queues/abc/entries", "{\"userId\":\"a\"}"),
                post("/api/v1/queues/-1/entries", "{\"userId\":\"a\"}"),
                post("/api/v1/queues/0/entries", "{\"userId\":\"a\"}"),
                // a malformed user id is refused as malformed in every identity, before the line's is asked
                this.stack.send("POST", Stack.url(this.stack.ingest, path), "{\"userId\":\"a b\"}", json, Map.of()));
        for (Reply reply : replies) {
            assertThat(reply.status()).as(reply.response().body()).isEqualTo(400);
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reply.text("code")).as(reply.response().body()).isEqualTo("invalid_request");
        }
        // what the line's identity ("trusted") refuses: an enter without the key or with another, one naming nobody,
        // a token this line did not issue
        Map<String, String> wrongKey = Map.of("Authorization", "Bearer " + Stack.ADMIN_TOKEN);
        Map<List<Object>, Reply> refused = Map.of(
                List.of(401, "enter_key_required"), this.stack.send("POST", Stack.url(this.stack.ingest, path),
                        "{\"userId\":\"a\"}", json, Map.of()),
                List.of(401, "enter_key_invalid"), this.stack.send("POST", Stack.url(this.stack.ingest, path),
                        "{\"userId\":\"a\"}", json, wrongKey),
                List.of(400, "user_id_required"), post(path, "{}"),
                List.of(400, "invalid_token"), post(path, "{\"token\":\"forged-token-abcdefghijklmnop\"}"));
        refused.forEach((expected, reply) -> {
            assertThat(reply.status()).as(reply.response().body()).isEqualTo(expected.get(0));
            assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
            assertThat(reply.text("code")).isEqualTo(expected.get(1));
        });
        Reply wrongType = this.stack.send("POST", Stack.url(this.stack.ingest, path), "userId=a", "text/plain",
                Stack.AS_SHOP);
        assertThat(wrongType.status()).isEqualTo(415);
        assertThat(wrongType.text("code")).isEqualTo("unsupported_media_type");
        Reply huge = post(path, "{\"userId\":\"" + "a".repeat(100_000) + "\"}");
        assertThat(huge.status()).isEqualTo(413);
        assertThat(huge.text("code")).isEqualTo("payload_too_large");

        // A queue answers to one spelling of its id only.
        String id = Long.toString(productId);
        for (String spelling : List.of("0x" + Long.toHexString(productId), "+" + id, "0" + id, id + ";x=1",
                id + "%3Bx=1", "%D9%A1", "%EF%BC%91")) {
            Reply reply = post("/api/v1/queues/" + spelling + "/entries", "{\"userId\":\"spelled\"}");
            assertThat(reply.status()).as(spelling).isEqualTo(400);
            assertThat(reply.text("code")).isEqualTo("invalid_request");
        }
        // A chunked body has no declared length; it is cut off at the limit all the same.
        HttpRequest.Builder chunked = HttpRequest.newBuilder(URI.create(Stack.url(this.stack.ingest, path)))
            .header("Content-Type", json)
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                    ("{\"userId\":\"" + "a".repeat(2_000_000) + "\"}").getBytes(StandardCharsets.UTF_8))));
        Stack.AS_SHOP.forEach(chunked::header);
        Reply chunkedReply = this.stack.send(chunked.build());
        assertThat(chunkedReply.status()).isEqualTo(413);
        assertThat(chunkedReply.text("code")).isEqualTo("payload_too_large");

        String marker = entered(productId, "valid-after-bad-input");
        await().until(() -> "AVAILABLE".equals(statusOf(productId, marker)));
        assertThat(enteredTotal(productId)).isEqualTo(1);
    }

    /** POSTs the JSON body to the ingest service as the shop's backend, with the enter key. */
    private Reply post(String path, String body) {
        return this.stack.send("POST", Stack.url(this.stack.ingest, path), body, "application/json", Stack.AS_SHOP);
    }

    @Test
    void queueAdministrationNeedsTheAdminTokenAndValidSettings() {
        long productId = ownProduct();
        String url = Stack.url(this.stack.worker, "/api/v1/queues/" + productId);
        String body = "{\"maxActive\":10,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true,"
                + "\"identity\":\"trusted\"}";
        assertThat(this.stack.send("PUT", url, body, "application/json", Map.of()).status()).isEqualTo(401);
        assertThat(this.stack.send("PUT", url, body, "application/json", Map.of("Authorization", "Bearer wrong")).status())
            .isEqualTo(401);
        Map<String, String> admin = Map.of("Authorization", "Bearer " + Stack.ADMIN_TOKEN);
        assertThat(this.stack.send("GET", url, null, null, admin).status()).isEqualTo(404);
        for (String bad : List.of("{\"maxActive\":0,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true}",
                "{\"maxActive\":1,\"admitPerSecond\":-5,\"entryTtlSeconds\":60,\"open\":true}",
                "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":0,\"open\":true}",
                "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":60}", "{\"maxActive\":\"many\"}",
                "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true,\"identity\":\"anyone\"}",
                "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true,\"identity\":\"pass\"}",
                "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true,\"inviteOnly\":true,"
                        + "\"identity\":\"trusted\"}")) {
            Reply reply = this.stack.send("PUT", url, bad, "application/json", admin);
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(reply.text("code")).isEqualTo("invalid_request");
        }
        assertThat(this.stack.send("GET", url, null, null, admin).status()).isEqualTo(404);

        Reply put = this.stack.send("PUT", url, body, "application/json", admin);
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.json().get("maxActive").asInt()).isEqualTo(10);
        assertThat(put.json().get("identity").asString()).isEqualTo("trusted");
        entered(productId, numbered("admin", 3));
        await().until(() -> this.stack.send("GET", url, null, null, admin).json().get("admittedTotal").asLong() == 3);
        Reply get = this.stack.send("GET", url, null, null, admin);
        assertThat(get.json().get("active").asLong()).isEqualTo(3);
        assertThat(get.json().get("waiting").asLong()).isZero();
        assertThat(get.json().get("admitPerSecond").asInt()).isEqualTo(5);
        assertThat(get.json().get("identity").asString()).isEqualTo("trusted");

        // left out, the identity is "visitor": the server makes the ids, and the shop's key names nobody
        String unnamed = "{\"maxActive\":10,\"admitPerSecond\":5,\"entryTtlSeconds\":60,\"open\":true}";
        assertThat(this.stack.send("PUT", url, unnamed, "application/json", admin).json().get("identity").asString())
            .isEqualTo("visitor");
        await().until(() -> this.stack.enter(productId, "admin-3").status() == 400);
        assertThat(this.stack.enter(productId, "admin-3").text("code")).isEqualTo("user_id_not_accepted");
    }
}
