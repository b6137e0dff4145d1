package io.queuegate.admission;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpServer;
import io.queuegate.core.event.UserAdmitted;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.testing.PrivateBroker;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook end to end: whole workers (started and stopped by each test) against an embedded KRaft broker and the
 * real, shared Redis, a queue set through the admin API, enters through the entries topic, and a real HTTP server as
 * the shop's receiver. Each test has a run of its own ({@link WorkerOnBroker}): a key prefix, topics and consumer
 * groups, so the workers it starts see its queues only, and no other test's records.
 */
class WebhookTests {

    private static final String WEBHOOK_SECRET = "whsec-" + UUID.randomUUID();

    private static final Duration DELIVERED = Duration.ofSeconds(60);

    private static final Map<String, String> WEBHOOK_SETTINGS = Map.of("queuegate.admission.webhook.timeout", "2s",
            "queuegate.admission.webhook.retries", "2", "queuegate.admission.webhook.first-retry", "100ms",
            "queuegate.admission.webhook.max-retry-interval", "200ms",
            // the shop of these tests listens on http://127.0.0.1
            "queuegate.egress.allow-private", "true", "queuegate.egress.allow-http", "true");

    private static EmbeddedKafkaKraftBroker kafka;

    private static final StringRedisTemplate redis = TestRedis.template();

    private WorkerOnBroker run;

    private Keyspace keyspace;

    private Receiver receiver;

    @BeforeAll
    static void start() {
        kafka = PrivateBroker.start(2);
    }

    @AfterAll
    static void stop() {
        kafka.destroy();
    }

    @BeforeEach
    void newRun() throws IOException {
        this.run = new WorkerOnBroker(kafka, "webhook-test");
        this.keyspace = this.run.keyspace();
        this.receiver = new Receiver();
    }

    @AfterEach
    void cleanUp() {
        this.run.close();
        this.receiver.close();
    }

    @Test
    void everyAdmittedUserIsPostedToTheShopSignedWithTheQueuesSecret() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = this.run.newProduct();
        assertThat(putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET).statusCode()).isEqualTo(200);
        long before = System.currentTimeMillis();
        List<String> users = this.run.enter(worker, product, "shopper", 3);

        await().atMost(DELIVERED).until(() -> this.receiver.eventIds().size() == 3);
        TokenCodec codec = worker.getBean(TokenCodec.class);
        for (Delivery delivery : this.receiver.deliveries) {
            assertThat(delivery.signature()).matches("t=\\d+,v1=[0-9a-f]{64}");
            long t = Long.parseLong(delivery.signature().substring(2, delivery.signature().indexOf(',')));
            assertThat(t).isBetween(before / 1000, System.currentTimeMillis() / 1000);
            assertThat(delivery.signature()).endsWith(",v1=" + hmac(WEBHOOK_SECRET, t + "." + delivery.text()));
            assertThat(delivery.contentType()).isEqualTo("application/json");
            JsonNode event = JsonMapper.shared().readTree(delivery.body());
            assertThat(event.get("type").asString()).isEqualTo("entry.available");
            assertThat(event.get("productId").asLong()).isEqualTo(product);
            assertThat(event.get("id").asString()).isEqualTo(delivery.eventId());
            String user = event.get("userId").asString();
            assertThat(event.get("token").asString()).isEqualTo(codec.issue(product, user).value());
            assertThat(event.get("expiresAt").asLong() - event.get("admittedAt").asLong()).isEqualTo(600_000);
            assertThat(event.get("admittedAt").asLong()).isGreaterThanOrEqualTo(before);
        }
        assertThat(this.receiver.deliveries.stream().map(this::userOf)).containsExactlyInAnyOrderElementsOf(users);
    }

    @Test
    void aQueueWithoutAWebhookPublishesNoAdmission() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long quiet = this.run.newProduct();
        long told = this.run.newProduct();
        assertThat(putQueue(worker, quiet, null, null).statusCode()).isEqualTo(200);
        assertThat(putQueue(worker, told, this.receiver.url(), WEBHOOK_SECRET).statusCode()).isEqualTo(200);
        this.run.enter(worker, quiet, "quiet", 2);
        this.run.enter(worker, told, "told", 2);

        await().atMost(DELIVERED).until(() -> this.receiver.eventIds().size() == 2);
        await().atMost(DELIVERED).until(() -> redis.opsForZSet().size(this.keyspace.product(quiet).entry()) == 2
                && redis.opsForStream().size(this.keyspace.product(quiet).audit()) == 0);
        assertThat(records("admissions").stream().map(ConsumerRecord::key))
            .containsOnly(Long.toString(told)).hasSize(2);
    }

    @Test
    void aReceiverThatAnswers500IsPostedTheSameEventAgain() throws Exception {
        this.receiver.answer = (n) -> n == 1 ? 500 : 204;
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = this.run.newProduct();
        putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET);
        this.run.enter(worker, product, "retried", 1);

        await().atMost(DELIVERED).until(() -> this.receiver.deliveries.size() >= 2);
        Delivery refused = this.receiver.deliveries.get(0);
        Delivery taken = this.receiver.deliveries.get(1);
        assertThat(refused.answered()).isEqualTo(500);
        assertThat(taken.answered()).isEqualTo(204);
        assertThat(taken.eventId()).isEqualTo(refused.eventId());
        assertThat(taken.text()).isEqualTo(refused.text());
        assertThat(records("admissions.DLT")).isEmpty();
    }

    @Test
    void anEventTheReceiverKeepsRefusingIsSetAsideOnTheDeadLetterTopicAfterItsRetries() throws Exception {
        this.receiver.answer = (n) -> 500;
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = this.run.newProduct();
        putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET);
        this.run.enter(worker, product, "refused", 1);

        await().atMost(DELIVERED).until(() -> records("admissions.DLT").size() == 1);
        ConsumerRecord<String, byte[]> letter = records("admissions.DLT").getFirst();
        UserAdmitted admitted = JsonMapper.shared().readValue(letter.value(), UserAdmitted.class);
        assertThat(admitted.userId()).isEqualTo("refused-00000");
        assertThat(letter.key()).isEqualTo(Long.toString(product));
        assertThat(header(letter, "kafka_dlt-exception-message")).contains("answered 500");
        // the first POST and two retries (queuegate.admission.webhook.retries=2), all of the one event
        assertThat(this.receiver.deliveries).hasSize(3);
        assertThat(this.receiver.eventIds()).containsExactly(admitted.eventId());
    }

    @Test
    void noAdmissionLosesItsEventWhenWorkersStopBeforeTheRelayAndBeforeTheReceiverTookIt() throws Exception {
        // a worker without the relay, as one that dies between the admission step and the publish: the step wrote
        // the admissions to the audit stream, and nothing else has them
        ConfigurableApplicationContext first = startWorker(Map.of(), new WithoutAuditRelay());
        long product = this.run.newProduct();
        putQueue(first, product, this.receiver.url(), WEBHOOK_SECRET);
        List<String> users = this.run.enter(first, product, "survivor", 5);
        await().atMost(DELIVERED).until(() -> redis.opsForZSet().size(this.keyspace.product(product).entry()) == 5);
        first.close();
        assertThat(redis.opsForStream().size(this.keyspace.product(product).audit())).isPositive();
        assertThat(records("admissions")).isEmpty();
        assertThat(this.receiver.deliveries).isEmpty();

        // a worker that relays them while the receiver is down, and stops while it is still retrying
        this.receiver.answer = (n) -> 503;
        ConfigurableApplicationContext second = startWorker(Map.of("queuegate.admission.webhook.retries", "20",
                "queuegate.admission.webhook.max-retry-interval", "1s"));
        await().atMost(DELIVERED).until(() -> records("admissions").size() == 5
                && !this.receiver.deliveries.isEmpty());
        second.close();

        // a third finds them all where the second left them
        this.receiver.answer = (n) -> 200;
        startWorker(Map.of());
        await().atMost(DELIVERED).until(() -> this.receiver.deliveries.stream()
            .filter(delivery -> delivery.answered() == 200)
            .map(this::userOf)
            .collect(Collectors.toSet())
            .containsAll(users));
        assertThat(records("admissions.DLT")).isEmpty();
    }

    @Test
    void theAdminApiTakesAWebhookWithItsSecretAndNeverAnswersTheSecret() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = this.run.newProduct();
        String url = this.receiver.url();
        for (String[] bad : new String[][] { { "ftp://shop.example/events", WEBHOOK_SECRET },
                { "/events", WEBHOOK_SECRET }, { "https://user:pass@shop.example/events", WEBHOOK_SECRET },
                { "https://shop.example/" + "a".repeat(2048), WEBHOOK_SECRET }, { url, null }, { null, WEBHOOK_SECRET },
                { url, "too-short" } }) {
            HttpResponse<String> refused = putQueue(worker, product, bad[0], bad[1]);
            assertThat(refused.statusCode()).as("%s, %s", bad[0], bad[1]).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(JsonMapper.shared().readTree(refused.body()).get("code").asString())
                .isEqualTo("invalid_request");
        }
        assertThat(redis.hasKey(this.keyspace.product(product).settings())).isFalse();

        HttpResponse<String> stored = putQueue(worker, product, url, WEBHOOK_SECRET);
        assertThat(stored.statusCode()).isEqualTo(200);
        assertThat(stored.body()).doesNotContain(WEBHOOK_SECRET).contains(url);
        HttpResponse<String> read = this.run.getQueue(worker, product);
        JsonNode queue = JsonMapper.shared().readTree(read.body());
        assertThat(queue.get("webhookUrl").asString()).isEqualTo(url);
        assertThat(queue.get("webhookSecretSet").asBoolean()).isTrue();
        assertThat(read.body()).doesNotContain(WEBHOOK_SECRET);
        assertThat(this.run.admin(HttpRequest.newBuilder(WorkerOnBroker.uri(worker, "/api/v1/queues"))).body())
            .doesNotContain(WEBHOOK_SECRET);
        assertThat(redis.opsForHash().get(this.keyspace.product(product).settings(), "webhookSecret"))
            .isEqualTo(WEBHOOK_SECRET);

        // a change that names the URL without the secret (no answer carries it) keeps the secret stored
        assertThat(putQueue(worker, product, url, null).statusCode()).isEqualTo(200);
        assertThat(redis.opsForHash().get(this.keyspace.product(product).settings(), "webhookSecret"))
            .isEqualTo(WEBHOOK_SECRET);

        // a change that leaves the webhook out turns it off
        putQueue(worker, product, null, null);
        JsonNode off = JsonMapper.shared()
            .readTree(this.run.getQueue(worker, product).body());
        assertThat(off.get("webhookUrl").isNull()).isTrue();
        assertThat(off.get("webhookSecretSet").asBoolean()).isFalse();
    }

    @Test
    void asDeployedTheWorkerTakesOnlyHttpsUrlsAndPostsToNoAddressInside() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of("queuegate.egress.allow-private", "false",
                "queuegate.egress.allow-http", "false"));
        long product = this.run.newProduct();
        int port = URI.create(this.receiver.url()).getPort();
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put(this.receiver.url(), "must be an https URL");
        refused.put("http://shop.example/events", "must be an https URL");
        refused.put("https://127.0.0.1:" + port + "/events", "127.0.0.1, which is not a public address");
        refused.put("https://169.254.169.254/latest/meta-data/", "169.254.169.254, which is not a public address");
        refused.put("https://10.1.2.3/events", "10.1.2.3, which is not a public address");
        refused.put("https://[::1]:" + port + "/events", "which is not a public address");
        refused.put("https://[::ffff:127.0.0.1]:" + port + "/events", "which is not a public address");
        for (Map.Entry<String, String> url : refused.entrySet()) {
            HttpResponse<String> answer = putQueue(worker, product, url.getKey(), WEBHOOK_SECRET);
            assertThat(answer.statusCode()).as(url.getKey()).isEqualTo(400);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonNode problem = JsonMapper.shared().readTree(answer.body());
            assertThat(problem.get("code").asString()).isEqualTo("invalid_request");
            assertThat(problem.get("detail").asString()).as(url.getKey()).startsWith("webhookUrl ")
                .contains(url.getValue());
        }
        assertThat(redis.hasKey(this.keyspace.product(product).settings())).isFalse();

        // a name is judged when it is connected to: localhost is taken here, and no POST reaches what it resolves to
        String inside = "https://localhost:" + port + "/events";
        assertThat(putQueue(worker, product, inside, WEBHOOK_SECRET).statusCode()).isEqualTo(200);
        this.run.enter(worker, product, "inside", 1);
        await().atMost(DELIVERED).until(() -> records("admissions.DLT").size() == 1);
        assertThat(header(records("admissions.DLT").getFirst(), "kafka_dlt-exception-message"))
            .contains("localhost resolves to").contains("which is not a public address");
        assertThat(this.receiver.deliveries).isEmpty();
    }

    /** A worker that posts to the test's receiver and gives up after two quick retries; {@code overrides} win. */
    private ConfigurableApplicationContext startWorker(Map<String, String> overrides,
            ApplicationContextInitializer<?>... initializers) {
        Map<String, String> properties = new HashMap<>(WEBHOOK_SETTINGS);
        properties.putAll(overrides);
        return this.run.start(properties, initializers);
    }

    private HttpResponse<String> putQueue(ConfigurableApplicationContext worker, long product, String webhookUrl,
            String webhookSecret) throws Exception {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("maxActive", 100);
        settings.put("admitPerSecond", 100);
        settings.put("entryTtlSeconds", 600);
        settings.put("open", true);
        settings.put("webhookUrl", webhookUrl);
        settings.put("webhookSecret", webhookSecret);
        return this.run.putQueue(worker, product, settings);
    }

    /** Every record the run's topic {@code name} holds now; none when it does not exist. */
    private List<ConsumerRecord<String, byte[]>> records(String name) {
        return this.run.records(this.run.topic(name));
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private String userOf(Delivery delivery) {
        return JsonMapper.shared().readTree(delivery.body()).get("userId").asString();
    }

    /** What a shop computes to check a signature: written out here, not taken from the signer under test. */
    private static String hmac(String secret, String signed) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
    }

    record Delivery(String signature, String eventId, String contentType, byte[] body, int answered) {

        String text() {
            return new String(this.body, StandardCharsets.UTF_8);
        }
    }

    /** The shop: takes every POST, keeps it, and answers what the test says for the n-th request (from 1). */
    static final class Receiver implements AutoCloseable {

        final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

        volatile IntUnaryOperator answer = (n) -> 204;

        private final AtomicInteger requests = new AtomicInteger();

        private final HttpServer server;

        Receiver() throws IOException {
            this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            this.server.createContext("/events", (exchange) -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                int status = this.answer.applyAsInt(this.requests.incrementAndGet());
                this.deliveries.add(new Delivery(exchange.getRequestHeaders().getFirst("Queuegate-Signature"),
                        exchange.getRequestHeaders().getFirst("Queuegate-Event-Id"),
                        exchange.getRequestHeaders().getFirst("Content-Type"), body, status));
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            this.server.start();
        }

        String url() {
            return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/events";
        }

        Set<String> eventIds() {
            return this.deliveries.stream().map(Delivery::eventId).collect(Collectors.toSet());
        }

        @Override
        public void close() {
            this.server.stop(0);
        }
    }
}
