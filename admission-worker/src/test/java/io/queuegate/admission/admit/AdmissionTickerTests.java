package io.queuegate.admission.admit;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.line.LinesGrew;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RegistryProperties;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one run of the ticker steps: every queue when the interval is up, and between those only the queues whose
 * line the writer grew, after which it pauses only for what is left of the interval. Runs are called directly (the
 * ticker is not started), with a ten-second interval, so nothing here depends on timing.
 */
class AdmissionTickerTests {

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private static StringRedisTemplate redis;

    private final Keyspace keyspace = new Keyspace("qg-ticker-test-" + UUID.randomUUID().toString().substring(0, 8)
            + ":");

    private final QueueStore store = new QueueStore(redis, this.keyspace, QueueKeys.REGISTRY);

    private final List<Long> products = List.of(7_000_001L, 7_000_002L, 7_000_003L);

    /** The queues the ticker stepped, in order. */
    private final ConcurrentLinkedQueue<Long> stepped = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void connect() {
        redis = TestRedis.template();
    }

    @AfterEach
    void forget() {
        for (long product : this.products) {
            redis.delete(this.keyspace.product(product).all());
        }
        redis.delete(List.of(this.keyspace.registry(QueueKeys.REGISTRY),
                this.keyspace.admissionWorkers(QueueKeys.REGISTRY)));
    }

    @Test
    void betweenFullTicksOnlyTheQueuesThatGrewAreSteppedAndTheFullTickIsNotPutOff() {
        this.products.forEach((product) -> this.store.save(product, new QueueSettings(5, 100, 60, true)));
        AdmissionTicker ticker = ticker();

        ticker.runOnce();
        assertThat(this.stepped).as("the first run steps every queue")
            .containsExactlyInAnyOrderElementsOf(this.products);
        Duration afterFullTick = ticker.nextPause();
        assertThat(afterFullTick).isPositive().isLessThanOrEqualTo(INTERVAL);

        this.stepped.clear();
        ticker.linesGrew(new LinesGrew(Set.of(7_000_002L)));
        ticker.runOnce();
        assertThat(this.stepped).as("a run before the interval is up steps the grown queue alone")
            .containsExactly(7_000_002L);
        assertThat(ticker.nextPause()).as("what is left of the interval, not a new one")
            .isLessThan(INTERVAL)
            .isLessThanOrEqualTo(afterFullTick);

        this.stepped.clear();
        ticker.runOnce();
        assertThat(this.stepped).as("nothing grew since: nothing to step").isEmpty();
    }

    private AdmissionTicker ticker() {
        AdmissionProperties properties = new AdmissionProperties(INTERVAL, 10_000, "queuegate.entries", 12, 2_000,
                "queuegate.audit", Duration.ofMillis(500), 1_000, 100_000, "queuegate.entries.DLT", "queuegate.sale",
                "queuegate.bookings", "queuegate.leaves", Duration.ofDays(7), Duration.ofSeconds(1),
                Duration.ofSeconds(2));
        QueueShare share = new QueueShare(redis, this.keyspace, new RegistryProperties(QueueKeys.REGISTRY),
                properties);
        Admission admission = new Admission(redis, new ScriptTimer(new SimpleMeterRegistry()), this.keyspace) {

            @Override
            public Optional<AdmissionResult> admitAsHolder(long productId, long nowMillis, int maxBatch,
                    String holder, long leaseMillis, long auditBacklogLimit) {
                AdmissionTickerTests.this.stepped.add(productId);
                return super.admitAsHolder(productId, nowMillis, maxBatch, holder, leaseMillis, auditBacklogLimit);
            }
        };
        return new AdmissionTicker(this.store, admission, properties, new SimpleMeterRegistry(), share);
    }
}
