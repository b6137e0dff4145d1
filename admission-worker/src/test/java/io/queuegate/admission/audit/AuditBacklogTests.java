package io.queuegate.admission.audit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.WorkerOnBroker;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.PrivateBroker;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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
 * has a run of its own ({@link WorkerOnBroker}): a key prefix and topics, so its worker sees its queue only.
 */
class AuditBacklogTests {

    private static final int BOUND = 5;

    private static final int USERS = 30;

    private static EmbeddedKafkaKraftBroker kafka;

    private static final StringRedisTemplate redis = TestRedis.template();

    private ConfigurableApplicationContext worker;

    private WorkerOnBroker run;

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
        this.run = new WorkerOnBroker(kafka, "audit-backlog-test");
        this.keyspace = this.run.keyspace();
        this.product = this.run.newProduct();
    }

    @AfterEach
    void cleanUp() {
        this.run.close();
    }

    @Test
    void withTheRelayAwayAdmissionsStopAtTheBoundAndEveryChangeReachesKafkaInOrderOnceItIsBack() throws Exception {
        this.worker = this.run.start(Map.of("queuegate.admission.audit-backlog-limit", Integer.toString(BOUND)));
        AuditRelay relay = this.worker.getBean(AuditRelay.class);
        relay.stop();
        QueueKeys keys = this.keyspace.product(this.product);
        // five a second: after the first step's full bucket, about one admission per step, one change each
        assertThat(putQueue(5).statusCode()).isEqualTo(200);
        List<String> users = this.run.enter(this.worker, this.product, "waiting", USERS);

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
        JsonNode view = JsonMapper.shared().readTree(this.run.getQueue(this.worker, this.product).body());
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
        JsonNode after = JsonMapper.shared().readTree(this.run.getQueue(this.worker, this.product).body());
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

    private HttpResponse<String> putQueue(int admitPerSecond) throws Exception {
        return this.run.putQueue(this.worker, this.product, Map.of("maxActive", 1000, "admitPerSecond",
                admitPerSecond, "entryTtlSeconds", 600, "open", true));
    }

    /** The product's changes on the audit topic, in the topic's order. */
    private List<JsonNode> changes() {
        List<JsonNode> changes = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : this.run.records(this.run.topic("audit"))) {
            if (Long.toString(this.product).equals(record.key())) {
                changes.add(JsonMapper.shared().readTree(record.value()));
            }
        }
        return changes;
    }
}
