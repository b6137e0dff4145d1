package io.queuegate.admission.audit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.core.event.EntryRequested;
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
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The audit stream while its relay is away, on a whole worker against an embedded KRaft broker and the real, shared
 * Redis, with a bound of {@value #BOUND} unrelayed changes: admissions stop at the bound and nothing is trimmed; once
 * the relay runs again every change reaches the audit topic in the order it was made, and admissions resume. The test
 * has a key prefix and topics of its own, so its worker sees its queue only.
 */
class AuditBacklogTests {

    private static final int BOUND = 5;

    private static final int USERS = 30;

    private static final String TOKEN_SECRET = TestSecrets.random("audit-backlog-test-token-secret");

    private static final String ADMIN_TOKEN = TestSecrets.random("audit-backlog-test-admin-token");

    private static EmbeddedKafkaKraftBroker kafka;

    private static final StringRedisTemplate redis = TestRedis.template();

    private final HttpClient http = HttpClient.newHttpClient();

    private ConfigurableApplicationContext worker;

    private String run;

    private Keyspace keyspace;

    private long product;

    @BeforeAll
    static void start() {
        kafka = PrivateBroker.start(2);
    }

    @AfterAll
    static void stop() {
        kafka.destroy();
    }

    @BeforeEach
    void newRun() {
        this.run = "audit-backlog-test-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.keyspace = new Keyspace(this.run + ":");
        this.product = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
    }

    @AfterEach
    void cleanUp() {
        if (this.worker != null) {
            this.worker.close();
        }
        this.http.close();
        redis.delete(this.keyspace.product(this.product).all());
        redis.delete(List.of(this.keyspace.registry(QueueKeys.REGISTRY),
                this.keyspace.admissionWorkers(QueueKeys.REGISTRY), this.keyspace.lineEpoch()));
    }

    @Test
    void withTheRelayAwayAdmissionsStopAtTheBoundAndEveryChangeReachesKafkaInOrderOnceItIsBack() throws Exception {
        this.worker = startWorker();
        AuditRelay relay = this.worker.getBean(AuditRelay.class);
        relay.stop();
        QueueKeys keys = this.keyspace.product(this.product);
        // five a second: after the first step's full bucket, about one admission per step, one change each
        assertThat(putQueue(5).statusCode()).isEqualTo(200);
        List<String> users = enter(USERS);

        // the line stops at the bound: the stream holds BOUND changes, nobody more is admitted, people wait
        await().atMost(Duration.ofSeconds(30)).until(() -> redis.opsForStream().size(keys.audit()) >= BOUND);
        long admitted = admittedTotal(keys);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
            .until(() -> admittedTotal(keys) == admitted && redis.opsForStream().size(keys.audit()) == BOUND);
        assertThat(admitted).isLessThan(USERS);
        assertThat(redis.opsForZSet().size(keys.waiting())).isEqualTo(USERS - admitted);
        List<String> held = redis.opsForStream().range(keys.audit(), Range.unbounded()).stream()
            .map((record) -> record.getId().getValue())
            .toList();
        assertThat(held).hasSize(BOUND);

        // the operator sees why: in the view, and in the worker's metrics
        JsonNode view = JsonMapper.shared().readTree(admin("/api/v1/queues/" + this.product).body());
        assertThat(view.get("admissionHold").asString()).isEqualTo("audit_backlog");
        assertThat(view.get("auditBacklog").asLong()).isEqualTo(BOUND);
        await().atMost(Duration.ofSeconds(5)).until(() -> heldGauge() == 1.0);

        relay.start();

        // every change reaches Kafka, those of the hold first and in the order they were made; the line moves on
        await().atMost(Duration.ofSeconds(60)).until(() -> admittedTotal(keys) == USERS
                && redis.opsForStream().size(keys.audit()) == 0);
        List<JsonNode> changes = changes();
        List<String> ids = changes.stream().map((change) -> change.get("eventId").asString()).toList();
        // relaying is at least once: a change may come twice, under the same id, never out of order
        List<String> firstSeen = new ArrayList<>(new LinkedHashSet<>(ids));
        assertThat(firstSeen.subList(0, BOUND)).isEqualTo(held);
        assertThat(firstSeen).isSortedAccordingTo(AuditBacklogTests::byStreamId);
        TokenCodec codec = this.worker.getBean(TokenCodec.class);
        Map<String, Integer> admissions = new HashMap<>();
        Set<String> counted = new LinkedHashSet<>();
        for (JsonNode change : changes) {
            if ("ADMITTED".equals(change.get("type").asString()) && counted.add(change.get("eventId").asString())) {
                change.get("tokens").forEach((token) -> admissions.merge(token.asString(), 1, Integer::sum));
            }
        }
        assertThat(admissions).hasSize(USERS).allSatisfy((token, times) -> assertThat(times).isOne());
        assertThat(admissions.keySet())
            .containsExactlyInAnyOrderElementsOf(users.stream()
                .map((user) -> codec.issue(this.product, user).value())
                .toList());
        JsonNode after = JsonMapper.shared().readTree(admin("/api/v1/queues/" + this.product).body());
        assertThat(after.get("admissionHold").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> heldGauge() == 0.0);
    }

    private static int byStreamId(String a, String b) {
        String[] x = a.split("-");
        String[] y = b.split("-");
        int byTime = Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0]));
        return byTime != 0 ? byTime : Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1]));
    }

    private long admittedTotal(QueueKeys keys) {
        Object total = redis.opsForHash().get(keys.stats(), "admittedTotal");
        return total == null ? 0 : Long.parseLong(total.toString());
    }

    private double heldGauge() {
        Gauge gauge = this.worker.getBean(MeterRegistry.class)
            .find("queuegate.queue.admission.held")
            .tag("product", Long.toString(this.product))
            .gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private ConfigurableApplicationContext startWorker() {
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
        properties.put("queuegate.admission.audit-backlog-limit", Integer.toString(BOUND));
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
        return new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .run(properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toArray(String[]::new));
    }

    private String topic(String name) {
        return this.run + "." + name;
    }

    private HttpResponse<String> putQueue(int admitPerSecond) throws Exception {
        String settings = JsonMapper.shared().writeValueAsString(Map.of("maxActive", 1000, "admitPerSecond",
                admitPerSecond, "entryTtlSeconds", 600, "open", true));
        return this.http.send(HttpRequest.newBuilder(worker("/api/v1/queues/" + this.product))
            .header("Authorization", "Bearer " + ADMIN_TOKEN)
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(settings))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String path) throws Exception {
        return this.http.send(HttpRequest.newBuilder(worker(path))
            .header("Authorization", "Bearer " + ADMIN_TOKEN)
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI worker(String path) {
        return URI.create("http://127.0.0.1:" + this.worker.getEnvironment().getProperty("local.server.port") + path);
    }

    /** One enter event per user, as ingest publishes them; returns the users once the broker has them. */
    private List<String> enter(int count) {
        TokenCodec codec = this.worker.getBean(TokenCodec.class);
        List<String> users = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString()), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                String user = "waiting-%05d".formatted(i);
                users.add(user);
                producer.send(new ProducerRecord<>(topic("entries"), Long.toString(this.product), JsonMapper.shared()
                    .writeValueAsString(new EntryRequested(this.product, codec.issue(this.product, user).value(),
                            user, "r-" + i, 1L))));
            }
            producer.flush();
        }
        return users;
    }

    /** The product's changes on the audit topic, in the topic's order. */
    private List<JsonNode> changes() {
        String topic = topic("audit");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString(),
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            List<JsonNode> changes = new ArrayList<>();
            while (!ends.isEmpty()) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (Long.toString(this.product).equals(record.key())) {
                        changes.add(JsonMapper.shared().readTree(record.value()));
                    }
                }
                ends.entrySet().removeIf(end -> consumer.position(end.getKey()) >= end.getValue());
            }
            return changes;
        }
    }
}
