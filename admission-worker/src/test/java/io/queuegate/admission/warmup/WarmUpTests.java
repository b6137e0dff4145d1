package io.queuegate.admission.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.core.testing.PrivateBroker;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.testing.WarmUpTraces;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A starting worker writes a burst through a scratch copy of itself before it says it is ready, and leaves nothing
 * of it behind: no key in Redis, no topic, no record in the entries topic, nothing in its own metrics; and it deletes
 * what a warm-up killed long ago left.
 */
class WarmUpTests {

    private static final String ENTRIES_TOPIC = "queuegate.entries";

    /** A warm-up's names, of one that started at epoch millisecond 1000 and was killed. */
    private static final String LEFTOVER = "warm-up-1000-0badf00d";

    private static EmbeddedKafkaKraftBroker kafka;

    private static final StringRedisTemplate redis = TestRedis.template();

    @BeforeAll
    static void start() {
        kafka = PrivateBroker.start(12, ENTRIES_TOPIC);
    }

    @AfterAll
    static void stop() {
        kafka.destroy();
    }

    @Test
    void aStartingWorkerWritesABurstThroughAScratchCopyAndLeavesNoTrace() throws Exception {
        redis.opsForValue().set(LEFTOVER + ":queue:{1}", "left by a killed warm-up");
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("queuegate." + LEFTOVER + ".entries", 1, (short) 1))).all().get();
        }

        try (ConfigurableApplicationContext worker = startWorker()) {
            WarmUp.Outcome outcome = worker.getBean(WarmUp.class).outcome();
            assertThat(outcome).isNotNull();
            assertThat(outcome.written()).as("enters the scratch copy wrote into its line")
                .isGreaterThanOrEqualTo(5_000);

            assertThat(WarmUpTraces.keys(redis)).as("Redis keys of a scratch copy left behind").isEmpty();
            await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(WarmUpTraces.topics(kafka.getBrokersAsString()))
                    .as("topics of a scratch copy left behind").isEmpty());
            assertThat(WarmUpTraces.records(kafka.getBrokersAsString(), ENTRIES_TOPIC))
                .as("records in the entries topic").isZero();
            assertThat(worker.getBean(MeterRegistry.class).find("queuegate.line.appended").counters())
                .allSatisfy((counter) -> assertThat(counter.count()).isZero());
        }
    }

    /** A worker that warms up until 5,000 enters are in its scratch line, however busy the JIT still is. */
    private static ConfigurableApplicationContext startWorker() {
        return new SpringApplicationBuilder(AdmissionWorkerApplication.class).run(
                "--spring.config.name=" + AdmissionWorkerApplication.CONFIG_NAME, "--server.port=0",
                "--management.server.port=0", "--spring.main.banner-mode=off",
                "--spring.kafka.bootstrap-servers=" + kafka.getBrokersAsString(),
                "--queuegate.admission.tick-interval=1h",
                "--queuegate.admission.warm-up.duration=60s", "--queuegate.admission.warm-up.enters=5000",
                "--queuegate.admission.warm-up.quiet-compilation=1h",
                "--queuegate.token.secret=" + TestSecrets.random("worker-warm-up-token-secret"),
                "--queuegate.admin.token=" + TestSecrets.random("worker-warm-up-admin-token"));
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString()));
    }
}
