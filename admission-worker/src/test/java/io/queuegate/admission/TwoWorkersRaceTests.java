package io.queuegate.admission;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.queue.WaitingLine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two more workers, each a whole application context, walk the same registry every 5 ms, starting together: they
 * settle which of them runs the queue (its lease) while admitting, and the lease may change hands. Capacity is one
 * atomic script's business, so however their steps interleave the entry set never holds more than maxActive tokens,
 * and no token is lost or held twice. (Scripts racing on one queue without a lease: {@code AdmissionRaceTests}.)
 */
class TwoWorkersRaceTests extends WorkerTestSupport {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> SNAPSHOT = RedisScript.of("return {redis.call('ZRANGE', KEYS[1], 0, -1), "
            + "redis.call('ZRANGE', KEYS[2], 0, -1), redis.call('SMEMBERS', KEYS[3]), redis.call('HGETALL', KEYS[4])}",
            List.class);

    private static final int MAX_ACTIVE = 20;

    private static final int TOKENS = 3_000;

    private static final long RUN_MILLIS = 5_000;

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    private final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    @AfterEach
    void stopWorkers() {
        this.workers.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void twoTickingWorkersNeverExceedCapacityNorLoseAToken() throws Exception {
        long product = newProduct();
        QueueKeys keys = QueueKeys.of(product);
        this.workers.add(startWorker());
        this.workers.add(startWorker());

        List<String> all = new ArrayList<>(TOKENS);
        for (int i = 0; i < TOKENS; i++) {
            all.add("race-%05d".formatted(i));
        }
        WaitingLine line = new WaitingLine(this.redis, this.context.getBean(ScriptTimer.class), Keyspace.DEFAULT);
        long[] offsets = new long[TOKENS];
        for (int i = 0; i < TOKENS; i++) {
            offsets[i] = i;
        }
        line.append(new LineChunk(product, "race:0", LineChunk.UNKNOWN, offsets, all));
        line.destroy();
        // registering the queue is what makes the workers tick it
        new QueueStore(this.redis).save(product, new QueueSettings(MAX_ACTIVE, 1_000, 1, true));

        long samples = 0;
        long maxSeen = 0;
        long deadline = System.currentTimeMillis() + RUN_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            // every member counts, including entries whose time ran out but were not removed yet
            long active = this.redis.opsForZSet().zCard(keys.entry());
            maxSeen = Math.max(maxSeen, active);
            samples++;
        }

        // stop all admission for the product, then read its state in one atomic step
        this.redis.opsForSet().remove(QueueKeys.REGISTRY, Long.toString(product));
        this.workers.forEach(ConfigurableApplicationContext::close);
        this.workers.clear();
        List<Object> snapshot = snapshot(keys);
        List<String> waiting = strings(snapshot.get(0));
        Set<String> entry = new HashSet<>(strings(snapshot.get(1)));
        Set<String> gone = new HashSet<>(strings(snapshot.get(2)));
        @SuppressWarnings("unchecked")
        Map<String, String> stats = (Map<String, String>) snapshot.get(3);
        long admittedTotal = Long.parseLong(stats.getOrDefault("admittedTotal", "0"));
        long expiredTotal = Long.parseLong(stats.getOrDefault("expiredTotal", "0"));

        assertThat(samples).as("samples of ZCARD").isGreaterThan(100);
        assertThat(maxSeen).as("most entries seen at once").isLessThanOrEqualTo(MAX_ACTIVE);
        // the workers did move the line: full capacity reached, and entries expired and were replaced
        assertThat(maxSeen).isEqualTo(MAX_ACTIVE);
        assertThat(admittedTotal).isGreaterThanOrEqualTo(2L * MAX_ACTIVE);
        assertThat(entry).hasSizeLessThanOrEqualTo(MAX_ACTIVE);

        assertThat(waiting).doesNotHaveDuplicates();
        Set<String> both = new HashSet<>(waiting);
        both.retainAll(entry);
        assertThat(both).as("waiting ∩ entry").isEmpty();
        Set<String> everywhere = new HashSet<>(waiting);
        everywhere.addAll(entry);
        everywhere.addAll(gone);
        assertThat(everywhere).containsExactlyInAnyOrderElementsOf(all);
        Set<String> waitingSet = new HashSet<>(waiting);
        for (String token : all) {
            int places = (waitingSet.contains(token) ? 1 : 0) + (entry.contains(token) ? 1 : 0)
                    + (gone.contains(token) ? 1 : 0);
            assertThat(places).as("places of %s", token).isEqualTo(1);
        }
        assertThat(admittedTotal).isEqualTo(TOKENS - waiting.size());
        // nothing consumes entries here, so every admitted token either still holds one or expired
        assertThat(admittedTotal).isEqualTo(expiredTotal + entry.size());
        // admission takes the head of the line: what is left is the tail, still in order
        assertThat(waiting).containsExactlyElementsOf(all.subList(TOKENS - waiting.size(), TOKENS));
        Set<String> head = new HashSet<>(all.subList(0, TOKENS - waiting.size()));
        Set<String> admittedOnes = new HashSet<>(entry);
        admittedOnes.addAll(gone);
        assertThat(admittedOnes).isEqualTo(head);
    }

    private ConfigurableApplicationContext startWorker() {
        ConfigurableApplicationContext worker = new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .initializers(new WithoutAuditRelay())
            .run(
                "--spring.config.name=" + AdmissionWorkerApplication.CONFIG_NAME,
                "--server.port=0",
                "--management.server.port=0",
                "--spring.main.banner-mode=off",
                "--spring.kafka.bootstrap-servers=" + this.brokers,
                "--spring.kafka.listener.auto-startup=false",
                "--queuegate.admission.tick-interval=5ms",
                "--queuegate.admission.warm-up.duration=0",
                "--queuegate.token.secret=" + TOKEN_SECRET,
                "--queuegate.admin.token=" + ADMIN_TOKEN);
        assertThat(WithoutAuditRelay.hasRelay(worker)).isFalse();
        return worker;
    }

    /**
     * The product's line in one atomic step: a script rather than MULTI, which Redis Cluster connections do not
     * offer; every key is the product's, so the script runs on one node either way.
     */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    private List<Object> snapshot(QueueKeys keys) {
        List<Object> read = this.redis.execute(SNAPSHOT, List.of(keys.waiting(), keys.entry(), keys.gone(),
                keys.stats()));
        Map<String, String> stats = new java.util.LinkedHashMap<>();
        List<String> flat = (List<String>) read.get(3);
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            stats.put(flat.get(i), flat.get(i + 1));
        }
        return List.of(read.get(0), read.get(1), read.get(2), stats);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object set) {
        return new ArrayList<>((java.util.Collection<String>) set);
    }
}
