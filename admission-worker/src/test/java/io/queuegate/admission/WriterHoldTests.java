package io.queuegate.admission;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import io.queuegate.admission.line.WriterHold;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MockMvcTester.MockMvcRequestBuilder;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.web.context.WebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The writer held and released over the admin API: held, it reads nothing from the log, and on the release the
 * backlog enters the line in log order. Requests go through the shared context's dispatcher (this context has no
 * server), so they meet the same admin guard, validation and problem answers a client does.
 */
class WriterHoldTests extends WorkerTestSupport {

    private static final String PATH = "/api/v1/writer";

    private static final Duration APPLIED = Duration.ofSeconds(30);

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    @Autowired
    WebApplicationContext web;

    @Autowired
    WriterHold hold;

    private MockMvcTester mvc;

    @BeforeEach
    void openMvc() {
        this.mvc = MockMvcTester.from(this.web);
        assertThat(writer().get("held").asBoolean()).as("held before the test").isFalse();
    }

    /** The other tests share this context and its writer: a failed test must not leave it held. */
    @AfterEach
    void releaseWriter() {
        this.hold.hold(false);
    }

    @Test
    void withoutTheAdminTokenTheWriterIsNeitherHeldNorShown() {
        MvcTestResult noToken = this.mvc.put().uri(PATH).contentType(MediaType.APPLICATION_JSON)
            .content("{\"held\": true}").exchange();
        assertRefused(noToken);
        MvcTestResult wrongToken = this.mvc.put().uri(PATH).header(HttpHeaders.AUTHORIZATION, "Bearer not-the-token")
            .contentType(MediaType.APPLICATION_JSON).content("{\"held\": true}").exchange();
        assertRefused(wrongToken);
        assertRefused(this.mvc.get().uri(PATH).exchange());

        JsonNode state = writer();
        assertThat(state.get("held").asBoolean()).isFalse();
        assertThat(state.get("paused").asBoolean()).isFalse();
        assertThat(state.get("running").asBoolean()).isTrue();
    }

    @Test
    void aBodyWithoutABooleanHeldIsRefused() {
        for (String body : List.of("{}", "{\"held\": \"x\"}", "{\"held\": null}")) {
            assertThat(put(body)).as(body)
                .hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.code").isEqualTo("invalid_request");
        }
        assertThat(writer().get("held").asBoolean()).isFalse();
    }

    @Test
    void aHeldWriterReadsNothingAndTheReleaseDrainsTheBacklogInLogOrder() {
        long product = newProduct();
        assertThat(put("{\"held\": true}")).hasStatusOk().bodyJson().extractingPath("$.held").isEqualTo(true);
        await().atMost(APPLIED).until(() -> writer().get("paused").asBoolean());

        List<String> users;
        try (KafkaProducer<String, String> producer = producer()) {
            users = enter(producer, this.codec, product, "held", 2_000);
        }

        // enter() returned once the broker acknowledged every event, so an unheld writer would start now
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(this.redis.hasKey(QueueKeys.of(product).waiting())).isFalse();
            assertThat(stat(product, "enteredTotal")).isZero();
        });
        JsonNode held = writer();
        assertThat(held.get("held").asBoolean()).isTrue();
        assertThat(held.get("paused").asBoolean()).isTrue();
        assertThat(held.get("running").asBoolean()).isTrue();

        assertThat(put("{\"held\": false}")).hasStatusOk().bodyJson().extractingPath("$.held").isEqualTo(false);
        await().atMost(APPLIED)
            .until(() -> this.redis.opsForZSet().zCard(QueueKeys.of(product).waiting()) >= users.size());

        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(waitingScores(product).get(users.getLast())).isEqualTo(2_000.0);
        assertThat(stat(product, "enteredTotal")).isEqualTo(2_000);
        await().atMost(APPLIED).until(() -> !writer().get("paused").asBoolean());
    }

    private static void assertRefused(MvcTestResult result) {
        assertThat(result).hasStatus(HttpStatus.UNAUTHORIZED)
            .hasHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
            .hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
            .bodyJson().extractingPath("$.code").isEqualTo("unauthorized");
    }

    private MvcTestResult put(String body) {
        return admin(this.mvc.put()).contentType(MediaType.APPLICATION_JSON).content(body).exchange();
    }

    /** The writer's state as GET answers it. */
    private JsonNode writer() {
        MvcTestResult result = admin(this.mvc.get()).exchange();
        assertThat(result).hasStatusOk();
        try {
            return JsonMapper.shared().readTree(result.getResponse().getContentAsString());
        }
        catch (java.io.UnsupportedEncodingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static MockMvcRequestBuilder admin(MockMvcRequestBuilder request) {
        return request.uri(PATH).header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN);
    }

    private KafkaProducer<String, String> producer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
