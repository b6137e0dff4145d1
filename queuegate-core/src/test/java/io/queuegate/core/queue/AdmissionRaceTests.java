package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Several workers run admission for one product at once; the script's atomicity is all that keeps it right. */
class AdmissionRaceTests extends RedisScriptTestSupport {

    private static final int THREADS = 4;

    private static final int CALLS_PER_THREAD = 150;

    @RepeatedTest(3)
    void concurrentWorkersNeverAdmitMoreThanMaxActive() throws Exception {
        configure(50, 1_000_000, 86_400, true);
        List<String> all = tokens("race", 2_000);
        this.line.append(this.product, all);

        List<AdmissionResult> results = runConcurrently(() -> this.admission.admit(this.product,
                ScriptTime.REDIS_TIME, 7));

        long admitted = results.stream().mapToLong(AdmissionResult::admitted).sum();
        assertThat(admitted).isEqualTo(50);
        assertThat(results).allSatisfy((result) -> {
            assertThat(result.active()).isBetween(0L, 50L);
            assertThat(result.admitted()).isBetween(0L, 7L);
            assertThat(result.expired()).isZero();
        });

        List<String> entry = entry();
        List<String> waiting = waiting();
        assertThat(entry).hasSize(50);
        assertThat(waiting).hasSize(1_950);
        Set<String> intersection = new HashSet<>(entry);
        intersection.retainAll(waiting);
        assertThat(intersection).isEmpty();
        Set<String> union = new HashSet<>(entry);
        union.addAll(waiting);
        assertThat(union).isEqualTo(new HashSet<>(all));
        // the head of the line, and the rest still in order
        assertThat(entry).containsExactlyInAnyOrderElementsOf(all.subList(0, 50));
        assertThat(waiting).containsExactlyElementsOf(all.subList(50, 2_000));
        assertThat(stat("admittedTotal")).isEqualTo(50);
    }

    @Test
    void concurrentWorkersShareOneRateBucket() throws Exception {
        configure(100_000, 100, 86_400, true);
        this.line.append(this.product, tokens("rate", 2_000));

        // a fixed instant: however many workers call, the bucket holds one second of admissions
        List<AdmissionResult> results = runConcurrently(() -> this.admission.admit(this.product, NOW, 9));

        assertThat(results.stream().mapToLong(AdmissionResult::admitted).sum()).isEqualTo(100);
        assertThat(entry()).hasSize(100);
        assertThat(waiting()).hasSize(1_900);
        assertThat(stat("admittedTotal")).isEqualTo(100);
    }

    @Test
    void admissionRacingWithAppendsAndLeavesLosesNobody() throws Exception {
        configure(50, 1_000_000, 86_400, true);
        List<String> all = tokens("mix", 1_000);
        List<String> leavers = all.stream().filter((t) -> t.endsWith("7")).toList();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> futures = new ArrayList<>();
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < all.size(); i += 25) {
                    this.line.append(this.product, all.subList(i, i + 25));
                }
                return null;
            }));
            futures.add(pool.submit(() -> {
                start.await();
                for (String leaver : leavers) {
                    this.remover.remove(token(leaver));
                }
                return null;
            }));
            for (int t = 0; t < 2; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 200; i++) {
                        this.admission.admit(this.product, ScriptTime.REDIS_TIME, 5);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        }
        // let admission settle
        this.admission.admit(this.product, ScriptTime.REDIS_TIME, 100);

        // a leave either removed its token or, coming first, made the late append skip it: no leaver is
        // anywhere, every other token is in exactly one place, and admission took the line's head in order
        List<String> stayers = all.stream().filter((t) -> !leavers.contains(t)).toList();
        List<String> entry = entry();
        List<String> waiting = waiting();
        assertThat(entry).hasSize(50).doesNotContainAnyElementsOf(leavers);
        assertThat(waiting).doesNotContainAnyElementsOf(leavers);
        Set<String> intersection = new HashSet<>(entry);
        intersection.retainAll(waiting);
        assertThat(intersection).isEmpty();
        assertThat(entry).containsExactlyInAnyOrderElementsOf(stayers.subList(0, 50));
        assertThat(waiting).containsExactlyElementsOf(stayers.subList(50, stayers.size()));
        assertThat(stat("leftTotal")).isBetween(0L, (long) leavers.size());
        assertThat(gone()).containsExactlyInAnyOrderElementsOf(leavers);
    }

    private List<AdmissionResult> runConcurrently(java.util.concurrent.Callable<AdmissionResult> call)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<AdmissionResult>>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            for (int t = 0; t < THREADS; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    List<AdmissionResult> mine = new ArrayList<>();
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        mine.add(call.call());
                    }
                    return mine;
                }));
            }
            start.countDown();
            List<AdmissionResult> results = new ArrayList<>();
            for (Future<List<AdmissionResult>> future : futures) {
                results.addAll(future.get());
            }
            return results;
        }
    }
}
