package io.queuegate.ingest.enter;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.ingest.LineFixture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An enter answers 202 only for an event the log holds, writes nothing for a bad request (nor for one its line's
 * identity refuses), and answers 503 quickly when the log cannot be reached. Runs against an embedded KRaft broker
 * and the real, shared Redis.
 */
class EnterPublishingTests extends IngestHttpTestSupport {

    private long product;

    @BeforeEach
    void openQueue() {
        this.product = LineFixture.freeProduct(this.redis);
        LineFixture.openUnregistered(this.redis, this.product, 10, 10);
    }

    @AfterEach
    void deleteQueue() {
        this.redis.delete(QueueKeys.of(this.product).all());
    }

    @Test
    void anAcceptedEnterIsInTheLogKeyedByProductWithTheSameToken() {
        HttpResponse<String> response = enter(this.port, this.product, "{\"userId\":\"alice\"}",
                keyAnd("X-Request-Id", "req-42"));

        assertThat(response.statusCode()).isEqualTo(202);
        JsonNode body = JsonMapper.shared().readTree(response.body());
        String token = body.get("token").asString();
        assertThat(body.get("productId").asLong()).isEqualTo(this.product);
        assertThat(body.get("userId").asString()).isEqualTo("alice");
        assertThat(body.get("status").asString()).isEqualTo("PENDING");
        assertThat(response.headers().firstValue("Location"))
            .hasValue("/api/v1/queues/" + this.product + "/entries/" + token);
        assertThat(new TokenCodec(TOKEN_SECRET).verify(token)).map(Token::userId).hasValue("alice");

        List<ConsumerRecord<String, String>> records = EnterLog.records(this.brokers, this.product);
        assertThat(records).hasSize(1);
        ConsumerRecord<String, String> record = records.getFirst();
        assertThat(record.key()).isEqualTo(Long.toString(this.product));
        JsonNode event = JsonMapper.shared().readTree(record.value());
        assertThat(event.get("version").asInt()).isEqualTo(2);
        assertThat(event.get("productId").asLong()).isEqualTo(this.product);
        assertThat(event.get("entries")).hasSize(1);
        JsonNode entry = event.get("entries").get(0);
        assertThat(entry.get("token").asString()).isEqualTo(token);
        assertThat(entry.get("userId").asString()).isEqualTo("alice");
        assertThat(entry.get("requestId").asString()).isEqualTo("req-42");
        assertThat(entry.get("requestedAt").asLong()).isPositive();

        // entering again gives the same token; the line applies the second event as a no-op
        HttpResponse<String> again = enter(this.port, this.product, "{\"userId\":\"alice\"}", ENTER_KEY_HEADER);
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(JsonMapper.shared().readTree(again.body()).get("token").asString()).isEqualTo(token);
        List<ConsumerRecord<String, String>> both = EnterLog.records(this.brokers, this.product);
        assertThat(both).hasSize(2);
        assertThat(both).allSatisfy((r) -> assertThat(EnterLog.tokensOf(r)).containsExactly(token));
        assertThat(both.get(0).partition()).isEqualTo(both.get(1).partition());
    }

    @Test
    void concurrentEntersShareRecordsAndEachAcceptedTokenIsInTheLogOnce() throws Exception {
        // a sale's opening: visitors, each entering with an empty body, each given an id of its own
        long visitors = newOpenQueue(10, 10, Identity.VISITOR);
        int users = 300;
        List<Future<HttpResponse<String>>> responses = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < users; i++) {
                responses.add(clients.submit(() -> enter(this.port, visitors, "{}", Map.of())));
            }
        }
        Set<String> accepted = new HashSet<>();
        Set<String> userIds = new HashSet<>();
        for (Future<HttpResponse<String>> response : responses) {
            assertThat(response.get().statusCode()).isEqualTo(202);
            JsonNode body = JsonMapper.shared().readTree(response.get().body());
            accepted.add(body.get("token").asString());
            userIds.add(body.get("userId").asString());
        }
        assertThat(accepted).hasSize(users);
        assertThat(userIds).hasSize(users);

        List<ConsumerRecord<String, String>> records = EnterLog.records(this.brokers, visitors);
        List<String> logged = records.stream().flatMap((r) -> EnterLog.tokensOf(r).stream()).toList();
        assertThat(logged).hasSize(users).containsExactlyInAnyOrderElementsOf(accepted);
        // group commit: enters that arrived together went out in shared records
        assertThat(records).hasSizeLessThan(users);
        assertThat(records).allSatisfy((r) -> assertThat(r.key()).isEqualTo(Long.toString(visitors)));
    }

    @Test
    void aBadRequestWritesNothingToTheLog() {
        Map<String, String> none = Map.of();
        Map<String, String> wrongKey = Map.of("Authorization", "Bearer " + ADMIN_TOKEN);
        // in a line of identity "trusted": a malformed user id or body, or none named, whatever the key, then a
        // missing or wrong key
        List<Refused> trusted = List.of(
                new Refused("{\"userId\":\"\"}", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("{\"userId\":\"   \"}", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("{\"userId\":\"" + "a".repeat(65) + "\"}", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("{\"userId\":\"has space\"}", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("{\"userId\":\"has space\"}", none, 400, "invalid_request"),
                new Refused("{\"userId\":", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("not json", ENTER_KEY_HEADER, 400, "invalid_request"),
                new Refused("{\"userId\":\"bob\"}", none, 401, "enter_key_required"),
                new Refused("{}", none, 400, "user_id_required"),
                new Refused("{\"userId\":\"bob\"}", wrongKey, 401, "enter_key_invalid"),
                new Refused("{\"userId\":null}", ENTER_KEY_HEADER, 400, "user_id_required"),
                new Refused("{}", ENTER_KEY_HEADER, 400, "user_id_required"),
                new Refused("{\"token\":\"not-a-token\"}", ENTER_KEY_HEADER, 400, "invalid_token"));
        // in a line of identity "visitor", which makes its visitors' ids
        long visitors = newOpenQueue(10, 10, Identity.VISITOR);
        List<Refused> visitor = List.of(
                new Refused("{\"userId\":\"has space\"}", none, 400, "invalid_request"),
                new Refused("{\"userId\":\"" + "a".repeat(65) + "\"}", none, 400, "invalid_request"),
                new Refused("not json", none, 400, "invalid_request"),
                new Refused("{\"userId\":\"bob\"}", none, 400, "user_id_not_accepted"),
                new Refused("{\"userId\":\"bob\"}", ENTER_KEY_HEADER, 400, "user_id_not_accepted"),
                new Refused("{\"token\":\"not-a-token\"}", none, 400, "invalid_token"));
        for (Refused refused : trusted) {
            refused.assertAnswered(enter(this.port, this.product, refused.body(), refused.headers()));
        }
        for (Refused refused : visitor) {
            refused.assertAnswered(enter(this.port, visitors, refused.body(), refused.headers()));
        }

        // the longest valid id is accepted, and its event is the only one of this product in the log
        String longest = "b".repeat(64);
        HttpResponse<String> valid = enter(this.port, this.product, "{\"userId\":\"" + longest + "\"}",
                ENTER_KEY_HEADER);
        assertThat(valid.statusCode()).isEqualTo(202);
        String token = JsonMapper.shared().readTree(valid.body()).get("token").asString();

        List<ConsumerRecord<String, String>> records = EnterLog.records(this.brokers, this.product);
        assertThat(records).hasSize(1);
        JsonNode entry = JsonMapper.shared().readTree(records.getFirst().value()).get("entries").get(0);
        assertThat(entry.get("token").asString()).isEqualTo(token);
        assertThat(entry.get("userId").asString()).isEqualTo(longest);
        // and a visitor's first enter is the only one of the visitors' line
        HttpResponse<String> first = enter(this.port, visitors, "{}", Map.of());
        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(EnterLog.tokens(this.brokers, visitors))
            .containsExactly(JsonMapper.shared().readTree(first.body()).get("token").asString());
    }

    @Test
    void anUnreachableLogAnswers503WithRetryAfterWithinThreeSeconds() {
        ConfigurableApplicationContext unreachable = startAnother("--spring.kafka.bootstrap-servers=127.0.0.1:1");
        try {
            int port = portOf(unreachable);
            // warm the web stack up, so that only the publish is timed
            HttpResponse<String> warmup = get(port, "/api/v1/queues/" + this.product + "/entries/not-a-token");
            assertThat(warmup.statusCode()).isEqualTo(400);

            for (int attempt = 0; attempt < 2; attempt++) {
                long started = System.nanoTime();
                HttpResponse<String> response = enter(port, this.product, "{\"userId\":\"bob-" + attempt + "\"}",
                        ENTER_KEY_HEADER);
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                assertThat(response.statusCode()).as("attempt %d", attempt).isEqualTo(503);
                assertThat(took).as("attempt %d", attempt).isLessThan(Duration.ofSeconds(3));
                assertThat(response.headers().firstValue("Retry-After")).hasValueSatisfying(
                        (value) -> assertThat(Long.parseLong(value)).isPositive());
                assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString())
                    .isEqualTo("unavailable");
            }
        }
        finally {
            unreachable.close();
        }
        // nothing reached the real log either
        assertThat(EnterLog.records(this.brokers, this.product)).isEmpty();
    }

    private HttpResponse<String> enter(int port, long product, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/queues/" + product + "/entries"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request);
    }

    /** The enter key's header and one more. */
    private static Map<String, String> keyAnd(String name, String value) {
        Map<String, String> headers = new HashMap<>(ENTER_KEY_HEADER);
        headers.put(name, value);
        return headers;
    }

    /** An enter that must be refused, with this status and problem code. */
    private record Refused(String body, Map<String, String> headers, int status, String code) {

        void assertAnswered(HttpResponse<String> response) {
            String what = this.body + " " + this.headers.keySet();
            assertThat(response.statusCode()).as(what).isEqualTo(this.status);
            assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString()).as(what)
                .isEqualTo(this.code);
        }
    }
}
