package io.queuegate.admission.admit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RegistryProperties;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A thousand open queues and several admission workers walking one registry: the workers share the queues (each
 * ticks its own share, not all of them), each queue is run by exactly one worker at a time, the queues of a worker
 * that stops without a word are taken over once its lease lapses, a worker that joins gets its share, and no queue
 * ever holds more entries than its capacity. The workers are the real ticker and share, each with an id of its own,
 * on a key prefix of this run's own, so no other worker on the same Redis walks these queues.
 */
class AdmissionLeaseTests {

    private static final int QUEUES = 1_000;

    private static final int USERS = 20;

    private static final int MAX_ACTIVE = 2;

    private static final Duration TICK = Duration.ofMillis(50);

    private static final Duration LEASE = Duration.ofSeconds(2);

    private static StringRedisTemplate redis;

    private final Keyspace keyspace = new Keyspace("qg-lease-test-" + UUID.randomUUID().toString().substring(0, 8)
            + ":");

    private final QueueStore store = new QueueStore(redis, this.keyspace, QueueKeys.REGISTRY);

    private final List<Long> products = new ArrayList<>();

    private final List<Worker> workers = new ArrayList<>();

    /** Every step a worker ran as the lease's holder, in the order they were answered. */
    private final ConcurrentLinkedQueue<Step> steps = new ConcurrentLinkedQueue<>();

    /** The most entries any step reported its queue holding afterwards, over the whole run. */
    private final AtomicLong mostActiveReported = new AtomicLong();

    @BeforeAll
    static void connect() {
        redis = TestRedis.template();
    }

    @AfterEach
    void forget() {
        this.workers.forEach(Worker::stopGracefully);
        for (long product : this.products) {
            redis.delete(this.keyspace.product(product).all());
        }
        redis.delete(List.of(this.keyspace.registry(QueueKeys.REGISTRY),
                this.keyspace.admissionWorkers(QueueKeys.REGISTRY)));
    }

    @Test
    void workersShareAThousandQueuesOneHolderAtATimeAndTakeOverFromOneThatStops() throws Exception {
        openQueues();
        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicLong mostActiveSeen = new AtomicLong();
        CompletableFuture<Long> sampler = CompletableFuture.supplyAsync(() -> sampleCapacity(sampling, mostActiveSeen));

        Worker a = start("a");
        Worker b = start("b");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.share.memberCount() == 2 && b.share.memberCount() == 2);
        settle();

        // a steady stretch: every queue is run, each by exactly one of the two, and each runs about half
        Map<Long, Set<String>> holders = holdersDuring(Duration.ofSeconds(2));
        assertThat(holders).as("queues run in the stretch").hasSize(QUEUES);
        assertThat(holders.values()).as("holders per queue").allSatisfy(h -> assertThat(h).hasSize(1));
        long ofA = holders.values().stream().filter(h -> h.contains("a")).count();
        assertThat(ofA).as("queues worker a runs").isBetween(350L, 650L);

        // worker a stops without a word (no release, no leaving): b takes its queues over once the leases lapse
        a.stopWithoutAWord();
        long stoppedAt = System.nanoTime();
        this.steps.clear();
        await().atMost(Duration.ofSeconds(10)).until(() -> queuesRunBy("b").size() == QUEUES);
        long takeOverMs = (System.nanoTime() - stoppedAt) / 1_000_000;
        System.out.printf("[lease test] worker b ran all %d queues %d ms after worker a stopped (lease %d ms)%n",
                QUEUES, takeOverMs, LEASE.toMillis());
        assertThat(takeOverMs).isLessThan(3 * LEASE.toMillis() + 2_000);
        // a late step of the stopped worker, under its old id, changes nothing
        long someQueue = this.products.get(ThreadLocalRandom.current().nextInt(QUEUES));
        assertThat(a.admission.admitAsHolder(someQueue, ScriptTime.REDIS_TIME, 100, a.share.workerId(),
                LEASE.toMillis(), Admission.AUDIT_BACKLOG_LIMIT)).isEmpty();

        // a worker that joins gets its share at once: b gives those queues back at its next tick
        Worker c = start("c");
        await().atMost(Duration.ofSeconds(10)).until(() -> c.share.memberCount() == 2 && b.share.memberCount() == 2);
        settle();
        Map<Long, Set<String>> afterJoin = holdersDuring(Duration.ofSeconds(2));
        assertThat(afterJoin).hasSize(QUEUES);
        assertThat(afterJoin.values()).allSatisfy(h -> assertThat(h).hasSize(1).doesNotContain("a"));
        long ofC = afterJoin.values().stream().filter(h -> h.contains("c")).count();
        assertThat(ofC).as("queues worker c runs").isBetween(350L, 650L);

        sampling.set(false);
        long samples = sampler.get();
        assertThat(samples).as("capacity samples").isGreaterThan(1_000);
        assertThat(mostActiveSeen.get()).as("most entries of one queue seen at once").isEqualTo(MAX_ACTIVE);
        assertThat(this.mostActiveReported.get()).as("most entries a step reported").isEqualTo(MAX_ACTIVE);
        long admitted = this.products.stream().mapToLong(this::admittedTotal).sum();
        assertThat(admitted).as("admitted over all queues").isGreaterThan(2L * QUEUES);

        // leaving gracefully gives every lease back
        b.stopGracefully();
        c.stopGracefully();
        List<String> leases = this.products.stream().map(p -> this.keyspace.product(p).admissionLease()).toList();
        assertThat(redis.countExistingKeys(leases)).isZero();
    }

    private void openQueues() {
        WaitingLine line = new WaitingLine(redis, new ScriptTimer(new SimpleMeterRegistry()), this.keyspace);
        try {
            List<CompletableFuture<?>> appends = new ArrayList<>();
            for (int i = 0; i < QUEUES; i++) {
                long product = 1_000_000L + i;
                this.products.add(product);
                this.store.save(product, new QueueSettings(MAX_ACTIVE, 1_000, 1, true));
                List<String> users = new ArrayList<>();
                long[] offsets = new long[USERS];
                for (int u = 0; u < USERS; u++) {
                    users.add("user-" + u);
                    offsets[u] = u;
                }
                appends.add(line.appendAsync(new LineChunk(product, "lease-test:0", LineChunk.UNKNOWN, offsets, users)));
            }
            CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).join();
        }
        finally {
            line.destroy();
        }
        assertThat(this.store.productIds()).hasSize(QUEUES);
    }

    private Worker start(String name) {
        AdmissionProperties properties = new AdmissionProperties(TICK, 10_000, "queuegate.entries", 12, 2_000,
                "queuegate.audit", Duration.ofMillis(500), 1_000, 100_000, "queuegate.entries.DLT", "queuegate.sale",
                "queuegate.bookings", "queuegate.leaves", Duration.ofDays(7), Duration.ofSeconds(1), LEASE);
        QueueShare share = new QueueShare(redis, this.keyspace, new RegistryProperties(QueueKeys.REGISTRY),
                properties);
        RecordingAdmission admission = new RecordingAdmission(name, this.keyspace, this.steps,
                this.mostActiveReported);
        AdmissionTicker ticker = new AdmissionTicker(this.store, admission, properties, new SimpleMeterRegistry(),
                share);
        Worker worker = new Worker(share, admission, ticker);
        share.start();
        ticker.start();
        this.workers.add(worker);
        return worker;
    }

    /**
     * Lets the workers that now agree on the members hand over what they hold and should not: each gives such a
     * queue back at its next tick.
     */
    private static void settle() throws InterruptedException {
        Thread.sleep(TICK.multipliedBy(10));
    }

    /** Which workers ran each queue during the next stretch of the given length. */
    private Map<Long, Set<String>> holdersDuring(Duration stretch) throws InterruptedException {
        this.steps.clear();
        Thread.sleep(stretch);
        Map<Long, Set<String>> holders = new HashMap<>();
        for (Step step : List.copyOf(this.steps)) {
            holders.computeIfAbsent(step.productId(), p -> new HashSet<>()).add(step.worker());
        }
        return holders;
    }

    private Set<Long> queuesRunBy(String worker) {
        Set<Long> run = new HashSet<>();
        for (Step step : this.steps) {
            if (step.worker().equals(worker)) {
                run.add(step.productId());
            }
        }
        return run;
    }

    /** Reads the entries of queues at random until told to stop; every member counts, expired or not. */
    private long sampleCapacity(AtomicBoolean sampling, AtomicLong mostSeen) {
        long samples = 0;
        while (sampling.get()) {
            long product = this.products.get(ThreadLocalRandom.current().nextInt(this.products.size()));
            Long active = redis.opsForZSet().zCard(this.keyspace.product(product).entry());
            mostSeen.accumulateAndGet(active == null ? 0 : active, Math::max);
            samples++;
        }
        return samples;
    }

    private long admittedTotal(long product) {
        Object value = redis.opsForHash().get(this.keyspace.product(product).stats(), "admittedTotal");
        return value == null ? 0 : Long.parseLong(value.toString());
    }

    private record Step(String worker, long productId, long active) {
    }

    /** The real admission step, noting each step its worker ran as the lease's holder. */
    private static final class RecordingAdmission extends Admission {

        private final String worker;

        private final ConcurrentLinkedQueue<Step> steps;

        private final AtomicLong mostActive;

        RecordingAdmission(String worker, Keyspace keyspace, ConcurrentLinkedQueue<Step> steps,
                AtomicLong mostActive) {
            super(redis, new ScriptTimer(new SimpleMeterRegistry()), keyspace);
            this.worker = worker;
            this.steps = steps;
            this.mostActive = mostActive;
        }

        @Override
        public Optional<AdmissionResult> admitAsHolder(long productId, long nowMillis, int maxBatch, String holder,
                long leaseMillis, long auditBacklogLimit) {
            Optional<AdmissionResult> result = super.admitAsHolder(productId, nowMillis, maxBatch, holder,
                    leaseMillis, auditBacklogLimit);
            result.ifPresent(step -> {
                this.steps.add(new Step(this.worker, productId, step.active()));
                this.mostActive.accumulateAndGet(step.active(), Math::max);
            });
            return result;
        }
    }

    private record Worker(QueueShare share, RecordingAdmission admission, AdmissionTicker ticker) {

        /** As a worker that dies: its ticks stop, and nothing is given back. */
        void stopWithoutAWord() {
            this.ticker.stop();
        }

        void stopGracefully() {
            this.ticker.stop();
            if (this.share.isRunning()) {
                this.share.stop();
            }
        }
    }
}
