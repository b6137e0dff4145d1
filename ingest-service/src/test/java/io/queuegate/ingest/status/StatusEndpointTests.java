package io.queuegate.ingest.status;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.ingest.LineFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a status poll answers over HTTP, alone and with many polls at once, and when Redis is down. Runs against the
 * real, shared Redis with a random product; the embedded broker is only there because the service needs one.
 */
class StatusEndpointTests extends IngestHttpTestSupport {

    private static final TokenCodec CODEC = new TokenCodec(TOKEN_SECRET);

    private long product;

    private QueueKeys keys;

    @BeforeEach
    void openQueue() {
        this.product = LineFixture.freeProduct(this.redis);
        this.keys = QueueKeys.of(this.product);
        LineFixture.openUnregistered(this.redis, this.product, 1, 4);
    }

    @AfterEach
    void deleteQueue() {
        this.redis.delete(this.keys.all());
    }

    @Test
    void aPollAnswersPendingWaitingAvailableAndExpiredWithTheirFields() {
        List<String> tokens = new ArrayList<>();
        for (String user : List.of("ann", "bob", "cy", "dee")) {
            tokens.add(CODEC.issue(this.product, user).value());
        }
        String pending = CODEC.issue(this.product, "eve").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, tokens));
        long admittedAt = System.currentTimeMillis();
        new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).admit(this.product, admittedAt, 10);
        new Leaving(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).remove(verified(tokens.get(1)));

        JsonNode available = poll(tokens.get(0), 200);
        assertThat(available.get("status").asString()).isEqualTo("AVAILABLE");
        assertThat(available.get("expiresAt").asLong()).isEqualTo(admittedAt + 60_000);
        assertThat(available.get("position").isNull()).isTrue();
        assertThat(available.get("pollAfterMs").asLong()).isBetween(1_000L, PollPolicy.ADMITTED_MAX_POLL_MS);

        JsonNode expired = poll(tokens.get(1), 200);
        assertThat(expired.get("status").asString()).isEqualTo("EXPIRED");
        assertThat(expired.get("pollAfterMs").isNull()).isTrue();

        JsonNode waiting = poll(tokens.get(3), 200);
        assertThat(waiting.get("token").asString()).isEqualTo(tokens.get(3));
        assertThat(waiting.get("productId").asLong()).isEqualTo(this.product);
        assertThat(waiting.get("status").asString()).isEqualTo("WAITING");
        assertThat(waiting.get("position").asLong()).isEqualTo(2);
        assertThat(waiting.get("etaSeconds").asLong()).isEqualTo(1);
        assertThat(waiting.get("expiresAt").isNull()).isTrue();

        JsonNode unseen = poll(pending, 200);
        assertThat(unseen.get("status").asString()).isEqualTo("PENDING");
        assertThat(unseen.get("position").isNull()).isTrue();
        assertThat(unseen.get("pollAfterMs").asLong()).isEqualTo(PollPolicy.PENDING_POLL_MS);
    }

    @Test
    void aTokenOfAnotherProductOrNoTokenAtAllIsRefusedBeforeRedis() {
        String foreign = CODEC.issue(this.product + 1, "ann").value();
        for (String token : List.of(foreign, "not-a-token")) {
            HttpResponse<String> response = get("/api/v1/queues/" + this.product + "/entries/" + token);
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString()).isEqualTo("invalid_token");
        }
    }

    @Test
    void manyPollsAtOnceEachGetTheirOwnExactPosition() throws Exception {
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            tokens.add(CODEC.issue(this.product, "user-" + i).value());
        }
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, tokens));

        // 50 clients, each with its own connection, polling their share of the line three times
        int clients = 50;
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<String>>> clientsSaw = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                clientsSaw.add(threads.submit(() -> {
                    List<String> wrong = new ArrayList<>();
                    for (int round = 0; round < 3; round++) {
                        for (int i = client; i < tokens.size(); i += clients) {
                            JsonNode answer = poll(tokens.get(i), 200);
                            if (!tokens.get(i).equals(answer.get("token").asString())
                                    || !"WAITING".equals(answer.get("status").asString())
                                    || answer.get("position").asLong() != i + 1) {
                                wrong.add("position " + (i + 1) + " answered " + answer);
                            }
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<List<String>> saw : clientsSaw) {
                assertThat(saw.get(60, TimeUnit.SECONDS)).isEmpty();
            }
        }
    }

    @Test
    void aPollWhileRedisIsDownAnswers503ProblemWithRetryAfter() {
        ConfigurableApplicationContext noRedis = startAnother("--spring.data.redis.port=1",
                "--spring.kafka.bootstrap-servers=" + this.brokers);
        try {
            int port = portOf(noRedis);
            String token = CODEC.issue(this.product, "ann").value();
            for (int attempt = 0; attempt < 2; attempt++) {
                HttpResponse<String> response = get(port, "/api/v1/queues/" + this.product + "/entries/" + token);

                assertThat(response.statusCode()).isEqualTo(503);
                assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                assertThat(response.headers().firstValue("Retry-After")).hasValueSatisfying(
                        (value) -> assertThat(Long.parseLong(value)).isPositive());
                assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString())
                    .isEqualTo("unavailable");
            }
        }
        finally {
            noRedis.close();
        }
    }

    @Test
    void theAnswerCarriesRetryAfterInWholeSecondsOfPollAfterMs() {
        String token = CODEC.issue(this.product, "ann").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(token)));

        HttpResponse<String> response = get("/api/v1/queues/" + this.product + "/entries/" + token);

        long pollAfterMs = JsonMapper.shared().readTree(response.body()).get("pollAfterMs").asLong();
        assertThat(response.headers().firstValue("Retry-After")).hasValue(Long.toString((pollAfterMs + 999) / 1000));
    }

    @Test
    void theEtaFollowsTheMeasuredPaceOnceThereIsOne() {
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tokens.add(CODEC.issue(this.product, "user-" + i).value());
        }
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, tokens));
        assertThat(poll(tokens.get(9), 200).get("etaSeconds").asLong()).as("10 at admitPerSecond 4").isEqualTo(3);

        this.redis.opsForHash().put(this.keys.stats(), "pace", "0.5");

        // the one place free is taken at the next step, so the tenth waits for nine more at the pace
        assertThat(poll(tokens.get(9), 200).get("etaSeconds").asLong()).as("9 at 0.5 per second").isEqualTo(18);
    }

    @Test
    void atZeroStockWaitingAndPendingUsersReadSoldOutAndPollLessOften() {
        String waiting = CODEC.issue(this.product, "ann").value();
        String pending = CODEC.issue(this.product, "bob").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(waiting)));
        this.redis.opsForValue().set(this.keys.stock(), "0");

        for (String token : List.of(waiting, pending)) {
            JsonNode answer = poll(token, 200);
            assertThat(answer.get("status").asString()).isEqualTo("SOLD_OUT");
            assertThat(answer.get("position").isNull()).isTrue();
            assertThat(answer.get("etaSeconds").isNull()).isTrue();
            assertThat(answer.get("pollAfterMs").asLong()).isEqualTo(PollPolicy.SOLD_OUT_POLL_MS);
        }

        this.redis.opsForValue().set(this.keys.stock(), "10");
        assertThat(poll(waiting, 200).get("status").asString()).isEqualTo("WAITING");
    }

    @Test
    void atZeroStockAnAdmittedUserReadsSoldOutWithTheAdmissionsExpiryAndNoAdmission() {
        String admitted = CODEC.issue(this.product, "ann").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(admitted)));
        long admittedAt = System.currentTimeMillis();
        new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).admit(this.product, admittedAt, 10);
        this.redis.opsForValue().set(this.keys.stock(), "0");

        JsonNode soldOut = poll(admitted, 200);
        assertThat(soldOut.get("status").asString()).isEqualTo("SOLD_OUT");
        assertThat(soldOut.get("expiresAt").asLong()).isEqualTo(admittedAt + 60_000);
        assertThat(soldOut.get("admission").isNull()).as("nothing to book with").isTrue();
        assertThat(soldOut.get("pollAfterMs").asLong()).isEqualTo(PollPolicy.ADMITTED_MAX_POLL_MS);

        this.redis.opsForValue().set(this.keys.stock(), "1");
        JsonNode again = poll(admitted, 200);
        assertThat(again.get("status").asString()).isEqualTo("AVAILABLE");
        assertThat(again.get("admission").asString()).isNotBlank();
    }

    @Test
    void underAPollBudgetAClientPollingFarFasterThanToldGets429AndKeepsItsPlace() {
        // one poll per second for the whole line: the second of three waits about 3.7 s
        this.redis.opsForHash().put(this.keys.settings(), "maxPollsPerSecond", "1");
        List<String> tokens = new ArrayList<>();
        for (String user : List.of("ann", "bob", "cy")) {
            tokens.add(CODEC.issue(this.product, user).value());
        }
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, tokens));
        String path = "/api/v1/queues/" + this.product + "/entries/" + tokens.get(1);

        JsonNode first = poll(tokens.get(1), 200);
        long told = first.get("pollAfterMs").asLong();
        assertThat(told).isBetween(3_000L, 5_000L);
        HttpResponse<String> again = get(path);

        assertThat(again.statusCode()).isEqualTo(429);
        assertThat(again.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(JsonMapper.shared().readTree(again.body()).get("code").asString()).isEqualTo("polled_too_soon");
        assertThat(again.headers().firstValue("Retry-After")).hasValueSatisfying(
                (value) -> assertThat(Long.parseLong(value) * 1000).isGreaterThanOrEqualTo(told));
        assertThat(this.redis.opsForZSet().rank(this.keys.waiting(), "bob")).isEqualTo(1L);

        // polling as told again is answered, at the same place
        await().pollDelay(Duration.ofMillis(told)).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(told))
            .until(() -> get(path).statusCode() == 200);
        assertThat(this.redis.opsForZSet().rank(this.keys.waiting(), "bob")).isEqualTo(1L);
    }

    @Test
    void beforeTheOpeningAWaitingUserHasNoPositionAndSeesTheOpeningTime() {
        long opensAt = System.currentTimeMillis() + 3_600_000;
        this.redis.opsForHash().put(this.keys.settings(), "opensAt", Long.toString(opensAt));
        String token = CODEC.issue(this.product, "ann").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(token)));

        JsonNode answer = poll(token, 200);

        assertThat(answer.get("status").asString()).isEqualTo("WAITING");
        assertThat(answer.get("position").isNull()).isTrue();
        assertThat(answer.get("etaSeconds").isNull()).isTrue();
        assertThat(answer.get("opensAt").asLong()).isEqualTo(opensAt);
        assertThat(answer.get("pollAfterMs").asLong()).isEqualTo(PollPolicy.MAX_POLL_MS);
    }

    @Test
    void withoutABudgetRepeatedPollsAreAllAnsweredAndNothingIsWritten() {
        String token = CODEC.issue(this.product, "ann").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(token)));

        for (int i = 0; i < 5; i++) {
            poll(token, 200);
        }

        assertThat(this.redis.hasKey(this.keys.seen())).isFalse();
    }

    private Token verified(String token) {
        return CODEC.verify(token).orElseThrow();
    }

    private JsonNode poll(String token, int expectedStatus) {
        HttpResponse<String> response = get("/api/v1/queues/" + this.product + "/entries/" + token);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return JsonMapper.shared().readTree(response.body());
    }

    private HttpResponse<String> get(String path) {
        return get(this.port, path);
    }

}
