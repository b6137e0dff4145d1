package io.queuegate.admission;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpServer;
import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.event.UserAdmitted;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.PrivateBroker;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The webhook end to end: whole workers (started and stopped by each test) against an embedded KRaft broker and the
 * real, shared Redis, a queue set through the admin API, enters through the entries topic, and a real HTTP server as
 * the shop's receiver. Each test has a key prefix, topics and consumer groups of its own, so the workers it starts
 * see its queues only, and no other test's records.
 */
class WebhookTests {

    private static final String TOKEN_SECRET = TestSecrets.random("webhook-test-token-secret");

    private static final String ADMIN_TOKEN = TestSecrets.random("webhook-test-admin-token");

    private static final String WEBHOOK_SECRET = "whsec-" + UUID.randomUUID();

    private static final Duration DELIVERED = Duration.ofSeconds(60);

    private static EmbeddedKafkaKraftBroker kafka;

    private static final StringRedisTemplate redis = TestRedis.template();

    private final HttpClient http = HttpClient.newHttpClient();

    private final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    private final List<Long> products = new ArrayList<>();

    private String run;

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
        this.run = "webhook-test-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.keyspace = new Keyspace(this.run + ":");
        this.receiver = new Receiver();
    }

    @AfterEach
    void cleanUp() {
        this.workers.forEach(ConfigurableApplicationContext::close);
        this.receiver.close();
        this.http.close();
        for (long product : this.products) {
            redis.delete(this.keyspace.product(product).all());
        }
        redis.delete(List.of(this.keyspace.registry(QueueKeys.REGISTRY),
                this.keyspace.admissionWorkers(QueueKeys.REGISTRY), this.keyspace.lineEpoch()));
    }

    @Test
    void everyAdmittedUserIsPostedToTheShopSignedWithTheQueuesSecret() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = newProduct();
        assertThat(putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET).statusCode()).isEqualTo(200);
        long before = System.currentTimeMillis();
        List<String> users = enter(worker, product, "shopper", 3);

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
        long quiet = newProduct();
        long told = newProduct();
        assertThat(putQueue(worker, quiet, null, null).statusCode()).isEqualTo(200);
        assertThat(putQueue(worker, told, this.receiver.url(), WEBHOOK_SECRET).statusCode()).isEqualTo(200);
        enter(worker, quiet, "quiet", 2);
        enter(worker, told, "told", 2);

        await().atMost(DELIVERED).until(() -> this.receiver.eventIds().size() == 2);
        await().atMost(DELIVERED).until(() -> redis.opsForZSet().size(this.keyspace.product(quiet).entry()) == 2
                && redis.opsForStream().size(this.keyspace.product(quiet).audit()) == 0);
        assertThat(records(topic("admissions")).stream().map(ConsumerRecord::key))
            .containsOnly(Long.toString(told)).hasSize(2);
    }

    @Test
    void aReceiverThatAnswers500IsPostedTheSameEventAgain() throws Exception {
        this.receiver.answer = (n) -> n == 1 ? 500 : 204;
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = newProduct();
        putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET);
        enter(worker, product, "retried", 1);

        await().atMost(DELIVERED).until(() -> this.receiver.deliveries.size() >= 2);
        Delivery refused = this.receiver.deliveries.get(0);
        Delivery taken = this.receiver.deliveries.get(1);
        assertThat(refused.answered()).isEqualTo(500);
        assertThat(taken.answered()).isEqualTo(204);
        assertThat(taken.eventId()).isEqualTo(refused.eventId());
        assertThat(taken.text()).isEqualTo(refused.text());
        assertThat(records(topic("admissions.DLT"))).isEmpty();
    }

    @Test
    void anEventTheReceiverKeepsRefusingIsSetAsideOnTheDeadLetterTopicAfterItsRetries() throws Exception {
        this.receiver.answer = (n) -> 500;
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = newProduct();
        putQueue(worker, product, this.receiver.url(), WEBHOOK_SECRET);
        enter(worker, product, "refused", 1);

        await().atMost(DELIVERED).until(() -> records(topic("admissions.DLT")).size() == 1);
        ConsumerRecord<String, byte[]> letter = records(topic("admissions.DLT")).getFirst();
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
        long product = newProduct();
        putQueue(first, product, this.receiver.url(), WEBHOOK_SECRET);
        List<String> users = enter(first, product, "survivor", 5);
        await().atMost(DELIVERED).until(() -> redis.opsForZSet().size(this.keyspace.product(product).entry()) == 5);
        first.close();
        assertThat(redis.opsForStream().size(this.keyspace.product(product).audit())).isPositive();
        assertThat(records(topic("admissions"))).isEmpty();
        assertThat(this.receiver.deliveries).isEmpty();

        // a worker that relays them while the receiver is down, and stops while it is still retrying
        this.receiver.answer = (n) -> 503;
        ConfigurableApplicationContext second = startWorker(Map.of("queuegate.admission.webhook.retries", "20",
                "queuegate.admission.webhook.max-retry-interval", "1s"));
        await().atMost(DELIVERED).until(() -> records(topic("admissions")).size() == 5
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
        assertThat(records(topic("admissions.DLT"))).isEmpty();
    }

    @Test
    void theAdminApiTakesAWebhookWithItsSecretAndNeverAnswersTheSecret() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of());
        long product = newProduct();
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
        HttpResponse<String> read = admin(worker, HttpRequest.newBuilder(worker(worker, "/api/v1/queues/" + product)));
        JsonNode queue = JsonMapper.shared().readTree(read.body());
        assertThat(queue.get("webhookUrl").asString()).isEqualTo(url);
        assertThat(queue.get("webhookSecretSet").asBoolean()).isTrue();
        assertThat(read.body()).doesNotContain(WEBHOOK_SECRET);
        assertThat(admin(worker, HttpRequest.newBuilder(worker(worker, "/api/v1/queues"))).body())
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
            .readTree(admin(worker, HttpRequest.newBuilder(worker(worker, "/api/v1/queues/" + product))).body());
        assertThat(off.get("webhookUrl").isNull()).isTrue();
        assertThat(off.get("webhookSecretSet").asBoolean()).isFalse();
    }

    @Test
    void asDeployedTheWorkerTakesOnlyHttpsUrlsAndPostsToNoAddressInside() throws Exception {
        ConfigurableApplicationContext worker = startWorker(Map.of("queuegate.egress.allow-private", "false",
                "queuegate.egress.allow-http", "false"));
        long product = newProduct();
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
        enter(worker, product, "inside", 1);
        await().atMost(DELIVERED).until(() -> records(topic("admissions.DLT")).size() == 1);
        assertThat(header(records(topic("admissions.DLT")).getFirst(), "kafka_dlt-exception-message"))
            .contains("localhost resolves to").contains("which is not a public address");
        assertThat(this.receiver.deliveries).isEmpty();
    }

    private ConfigurableApplicationContext startWorker(Map<String, String> overrides,
            ApplicationContextInitializer<?>... initializers) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.config.name", AdmissionWorkerApplication.CONFIG_NAME);
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        properties.put("spring.main.banner-mode", "off");
        properties.put("spring.kafka.bootstrap-servers", kafka.getBrokersAsString());
        properties.put("spring.kafka.consumer.group-id", topic("writer"));
        properties.put("queuegate.redis.key-prefix", this.keyspace.prefix());
        properties.put("queuegate.token.secret", TOKEN_SECRET);
        properties.put("queuegate.admin.token", ADMIN_TOKEN);
        properties.put("queuegate.admission.warm-up.duration", "0");
        properties.put("queuegate.admission.tick-interval", "50ms");
        properties.put("queuegate.admission.audit-interval", "100ms");
        properties.put("queuegate.admission.partitions", "2");
        properties.put("queuegate.admission.topic", topic("entries"));
        properties.put("queuegate.admission.audit-topic", topic("audit"));
        properties.put("queuegate.admission.dead-letter-topic", topic("entries.DLT"));
        properties.put("queuegate.admission.sale-topic", topic("sale"));
        properties.put("queuegate.admission.stock-topic", topic("stock"));
        properties.put("queuegate.admission.bookings-topic", topic("bookings"));
        properties.put("queuegate.admission.leaves-topic", topic("leaves"));
        properties.put("queuegate.admission.webhook.topic", topic("admissions"));
        properties.put("queuegate.admission.webhook.dead-letter-topic", topic("admissions.DLT"));
        properties.put("queuegate.admission.webhook.group", topic("webhooks"));
        properties.put("queuegate.admission.webhook.timeout", "2s");
        properties.put("queuegate.admission.webhook.retries", "2");
        properties.put("queuegate.admission.webhook.first-retry", "100ms");
        properties.put("queuegate.admission.webhook.max-retry-interval", "200ms");
        // the shop of these tests listens on http://127.0.0.1
        properties.put("queuegate.egress.allow-private", "true");
        properties.put("queuegate.egress.allow-http", "true");
        properties.putAll(overrides);
        ConfigurableApplicationContext worker = new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .initializers(initializers)
            .run(properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toArray(String[]::new));
        this.workers.add(worker);
        return worker;
    }

    private String topic(String name) {
        return this.run + "." + name;
    }

    private long newProduct() {
        long product = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
        this.products.add(product);
        return product;
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
        return admin(worker, HttpRequest.newBuilder(worker(worker, "/api/v1/queues/" + product))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(JsonMapper.shared().writeValueAsString(settings))));
    }

    private HttpResponse<String> admin(ConfigurableApplicationContext worker, HttpRequest.Builder request)
            throws Exception {
        return this.http.send(request.header("Authorization", "Bearer " + ADMIN_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI worker(ConfigurableApplicationContext worker, String path) {
        return URI.create("http://127.0.0.1:" + worker.getEnvironment().getProperty("local.server.port") + path);
    }

    /** One enter event per user, as ingest publishes them; returns the users once the broker has them. */
    private List<String> enter(ConfigurableApplicationContext worker, long product, String prefix, int count) {
        TokenCodec codec = worker.getBean(TokenCodec.class);
        List<String> users = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString()), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                String user = "%s-%05d".formatted(prefix, i);
                users.add(user);
                producer.send(new ProducerRecord<>(topic("entries"), Long.toString(product), JsonMapper.shared()
                    .writeValueAsString(new EntryRequested(product, codec.issue(product, user).value(), user,
                            "r-" + i, 1L))));
            }
            producer.flush();
        }
        return users;
    }

    /** Every record the topic holds now; none when it does not exist. */
    private static List<ConsumerRecord<String, byte[]>> records(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString(),
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            if (partitions.isEmpty()) {
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            while (!ends.isEmpty()) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                ends.entrySet().removeIf(end -> consumer.position(end.getKey()) >= end.getValue());
            }
            return records;
        }
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
