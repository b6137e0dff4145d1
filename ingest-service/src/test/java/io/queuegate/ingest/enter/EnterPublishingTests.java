package io.queuegate.ingest.enter;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
 * An enter answers 202 only for an event the log holds, writes nothing for a bad request, and answers 503 quickly
 * when the log cannot be reached. Runs against an embedded KRaft broker and the real, shared Redis.
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
        HttpResponse<String> response = enter(this.port, "{\"userId\":\"alice\"}", Map.of("X-Request-Id", "req-42"));

        assertThat(response.statusCode()).isEqualTo(202);
        JsonNode body = JsonMapper.shared().readTree(response.body());
        String token = body.get("token").asString();
        assertThat(body.get("productId").asLong()).isEqualTo(this.product);
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
        HttpResponse<String> again = enter(this.port, "{\"userId\":\"alice\"}", Map.of());
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(JsonMapper.shared().readTree(again.body()).get("token").asString()).isEqualTo(token);
        List<ConsumerRecord<String, String>> both = EnterLog.records(this.brokers, this.product);
        assertThat(both).hasSize(2);
        assertThat(both).allSatisfy((r) -> assertThat(EnterLog.tokensOf(r)).containsExactly(token));
        assertThat(both.get(0).partition()).isEqualTo(both.get(1).partition());
    }

    @Test
    void concurrentEntersShareRecordsAndEachAcceptedTokenIsInTheLogOnce() throws Exception {
        int users = 300;
        List<Future<HttpResponse<String>>> responses = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < users; i++) {
                String body = "{\"userId\":\"crowd-" + i + "\"}";
                responses.add(clients.submit(() -> enter(this.port, body, Map.of())));
            }
        }
        Set<String> accepted = new HashSet<>();
        for (Future<HttpResponse<String>> response : responses) {
            assertThat(response.get().statusCode()).isEqualTo(202);
            accepted.add(JsonMapper.shared().readTree(response.get().body()).get("token").asString());
        }
        assertThat(accepted).hasSize(users);

        List<ConsumerRecord<String, String>> records = EnterLog.records(this.brokers, this.product);
        List<String> logged = records.stream().flatMap((r) -> EnterLog.tokensOf(r).stream()).toList();
        assertThat(logged).hasSize(users).containsExactlyInAnyOrderElementsOf(accepted);
        // group commit: enters that arrived together went out in shared records
        assertThat(records).hasSizeLessThan(users);
        assertThat(records).allSatisfy((r) -> assertThat(r.key()).isEqualTo(Long.toString(this.product)));
    }

    @Test
    void aBadRequestWritesNothingToTheLog() {
        String[] bad = { "{\"userId\":\"\"}", "{\"userId\":\"   \"}", "{\"userId\":\"" + "a".repeat(65) + "\"}",
                "{\"userId\":\"has space\"}", "{\"userId\":null}", "{}", "{\"userId\":", "not json" };
        for (String body : bad) {
            HttpResponse<String> response = enter(this.port, body, Map.of());
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(JsonMapper.shared().readTree(response.body()).get("code").asString()).as(body)
                .isEqualTo("invalid_request");
        }

        // the longest valid id is accepted, and its event is the only one of this product in the log
        String longest = "b".repeat(64);
        HttpResponse<String> valid = enter(this.port, "{\"userId\":\"" + longest + "\"}", Map.of());
        assertThat(valid.statusCode()).isEqualTo(202);
        String token = JsonMapper.shared().readTree(valid.body()).get("token").asString();

        List<ConsumerRecord<String, String>> records = EnterLog.records(this.brokers, this.product);
        assertThat(records).hasSize(1);
        JsonNode entry = JsonMapper.shared().readTree(records.getFirst().value()).get("entries").get(0);
        assertThat(entry.get("token").asString()).isEqualTo(token);
        assertThat(entry.get("userId").asString()).isEqualTo(longest);
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
                HttpResponse<String> response = enter(port, "{\"userId\":\"bob-" + attempt + "\"}", Map.of());
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

    private HttpResponse<String> enter(int port, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/queues/" + this.product + "/entries"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request);
    }
}
