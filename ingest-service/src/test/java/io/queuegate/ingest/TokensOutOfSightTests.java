package io.queuegate.ingest;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A place's token is a bearer secret: no line the service logs carries it, nor the detail of a refusal, whichever
 * failure is logged (an enter's event Kafka did not take; a poll Redis did not answer, on the front and through
 * WebFlux); and the waiting page and what it loads send no Referer.
 */
@ExtendWith(OutputCaptureExtension.class)
class TokensOutOfSightTests extends IngestHttpTestSupport {

    private static final TokenCodec CODEC = new TokenCodec(TOKEN_SECRET);

    /** An origin the instance that fails its polls lets call: its polls go through WebFlux, not the front. */
    private static final String SHOP = "http://shop.example";

    @Test
    void anEnterKafkaDoesNotTakeIsLoggedWithoutTheTokensInIt(CapturedOutput output) {
        long product = newProduct();
        // identity "trusted": the test names the user, so it knows the token the event carries
        this.redis.opsForHash().putAll(QueueKeys.of(product).settings(), Map.of("maxActive", "10",
                "admitPerSecond", "10", "entryTtlSeconds", "60", "open", "true", "identity", "trusted"));
        String token = CODEC.issue(product, "ann").value();
        try (ConfigurableApplicationContext unreachable = startAnother(
                "--spring.kafka.bootstrap-servers=127.0.0.1:1")) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + portOf(unreachable) + "/api/v1/queues/" + product + "/entries"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ENTER_KEY)
                .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"ann\"}")));

            assertThat(response.statusCode()).isEqualTo(503);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut())
                .contains("Kafka did not take a record for topic " + TOPIC));
        }
        assertNothingOf(token, output);
    }

    @Test
    void aPollRedisDoesNotAnswerIsLoggedWithItsTokenRedacted(CapturedOutput output) {
        long product = newProduct();
        String token = CODEC.issue(product, "ann").value();
        String path = "/api/v1/queues/" + product + "/entries/" + token;
        try (ConfigurableApplicationContext noRedis = startAnother("--spring.data.redis.port=1",
                "--spring.kafka.bootstrap-servers=" + this.brokers, "--queuegate.web.allowed-origins=" + SHOP)) {
            int port = portOf(noRedis);
            assertThat(get(port, path).statusCode()).isEqualTo(503);
            HttpResponse<String> crossOrigin = send(HttpRequest
                .newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Origin", SHOP).GET());
            assertThat(crossOrigin.statusCode()).isEqualTo(503);
            assertThat(crossOrigin.headers().firstValue("Access-Control-Allow-Origin")).hasValue(SHOP);
        }

        String redacted = "GET /api/v1/queues/" + product + "/entries/{token} answered 503";
        List<String> told = Arrays.stream(output.getOut().split("\\R")).filter((line) -> line.contains(redacted))
            .toList();
        assertThat(told).as("the front's line and WebFlux's")
            .anySatisfy((line) -> assertThat(line).contains("FrontReplies"))
            .anySatisfy((line) -> assertThat(line).contains("ProblemWebExceptionHandler"));
        assertNothingOf(token, output);
    }

    @Test
    void aRefusalOfAPathUnderAPlaceDoesNotQuoteItsToken() {
        long product = newProduct();
        String token = CODEC.issue(product, "ann").value();

        HttpResponse<String> refused = get(this.port, "/api/v1/queues/" + product + "/entries/" + token + "/nothing");

        assertThat(refused.statusCode()).isEqualTo(404);
        String detail = JsonMapper.shared().readTree(refused.body()).get("detail").asString();
        assertThat(detail).contains("entries/{token}/nothing").doesNotContain(token.substring(0, 16));
    }

    @Test
    void theWaitingPageAndWhatItLoadsSendNoReferrer() {
        for (String path : List.of("/queues/7", "/waiting-room.js", "/queuegate.js", "/waiting-room.css")) {
            HttpResponse<String> answer = get(this.port, path);
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            assertThat(answer.headers().allValues("Referrer-Policy")).as(path).containsExactly("no-referrer");
        }
    }

    /**
     * Neither the token nor its start (its version, product and user) is in the output: a logger that cuts a long
     * line, as Spring Kafka's cuts a record at 100 characters, would still give the start away.
     */
    private static void assertNothingOf(String token, CapturedOutput output) {
        assertThat(output.getAll()).doesNotContain(token.substring(0, 16));
    }
}
