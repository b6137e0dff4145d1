package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AppendWaitingScriptTests extends RedisScriptTestSupport {

    @Test
    void tokensComeOutInTheGivenOrderWithStrictlyIncreasingScores() {
        // deliberately not in lexicographic order: only the score may decide the order
        List<String> batch = List.of("zeta", "alpha", "mike", "bravo", "yankee", "charlie");

        assertThat(this.line.append(this.product, batch)).isEqualTo(6);

        assertThat(waiting()).containsExactlyElementsOf(batch);
        List<Double> scores = List.copyOf(waitingScores().values());
        for (int i = 1; i < scores.size(); i++) {
            assertThat(scores.get(i)).isGreaterThan(scores.get(i - 1));
        }
        assertThat(scores).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
        assertThat(stat("seq")).isEqualTo(6);
        assertThat(stat("enteredTotal")).isEqualTo(6);
        assertThat(redis.opsForHash().size(this.keys.members())).isEqualTo(6);
    }

    @Test
    void scriptCalledDirectlyReturnsHowManyWereAddedAndAuditsThem() {
        Long added = redis.execute(QueueScripts.APPEND_WAITING,
                List.of(this.keys.waiting(), this.keys.members(), this.keys.stats(), this.keys.audit()),
                "1700000000000", "a", "b", "c");

        assertThat(added).isEqualTo(3);
        assertThat(waiting()).containsExactly("a", "b", "c");
        var audit = redis.opsForStream().range(this.keys.audit(), org.springframework.data.domain.Range.unbounded());
        assertThat(audit).hasSize(1);
        assertThat(audit.getFirst().getValue()).containsEntry("type", "ENTERED").containsEntry("at", "1700000000000")
            .containsEntry("tokens", "a,b,c");

        assertThat(redis.execute(QueueScripts.APPEND_WAITING,
                List.of(this.keys.waiting(), this.keys.members(), this.keys.stats(), this.keys.audit()),
                "1700000000001", "a", "b")).isZero();
        assertThat(redis.opsForStream().size(this.keys.audit())).as("nothing new, nothing audited").isEqualTo(1);
    }

    @Test
    void appendingTheSameBatchAgainAddsNothingAndChangesNoScore() {
        List<String> batch = tokens("t", 50);
        this.line.append(this.product, batch);
        Map<String, Double> before = waitingScores();

        assertThat(this.line.append(this.product, batch)).isZero();
        assertThat(this.line.append(this.product, batch.reversed())).isZero();

        assertThat(waitingScores()).containsExactlyEntriesOf(before);
        assertThat(stat("seq")).isEqualTo(50);
        assertThat(stat("enteredTotal")).isEqualTo(50);
    }

    @Test
    void duplicatesInsideOneBatchAreAddedOnce() {
        assertThat(this.line.append(this.product, List.of("a", "b", "a", "c", "b"))).isEqualTo(3);

        assertThat(waiting()).containsExactly("a", "b", "c");
        assertThat(waitingScores().values()).containsExactly(1.0, 2.0, 3.0);
    }

    @Test
    void overlappingBatchAddsOnlyTheNewTokensAtTheEnd() {
        this.line.append(this.product, List.of("a", "b", "c", "d"));
        Map<String, Double> before = waitingScores();

        // a redelivery that starts mid-batch and carries new events after it
        assertThat(this.line.append(this.product, List.of("c", "d", "e", "f"))).isEqualTo(2);

        assertThat(waiting()).containsExactly("a", "b", "c", "d", "e", "f");
        Map<String, Double> after = waitingScores();
        before.forEach((token, score) -> assertThat(after.get(token)).as(token).isEqualTo(score));
        assertThat(after.get("e")).isGreaterThan(after.get("d"));
        assertThat(after.get("f")).isGreaterThan(after.get("e"));
    }

    @Test
    void newTokensGoBehindEveryoneEvenAfterTheHeadWasAdmitted() {
        configure(2, 100, 60, true);
        this.line.append(this.product, List.of("a", "b", "c", "d"));
        this.admission.admit(this.product, NOW, 100);
        assertThat(waiting()).containsExactly("c", "d");

        // a and b are admitted: re-entering them is ignored; e goes to the end
        assertThat(this.line.append(this.product, List.of("a", "e", "b"))).isEqualTo(1);

        assertThat(waiting()).containsExactly("c", "d", "e");
        assertThat(entry()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void tokenThatLeftBeforeItsAppendIsNotAdded() {
        this.line.append(this.product, List.of("a"));

        assertThat(this.remover.remove(token("early-leaver"))).isFalse();
        assertThat(this.line.append(this.product, List.of("b", "early-leaver", "c"))).isEqualTo(2);

        assertThat(waiting()).containsExactly("a", "b", "c");
        assertThat(status("early-leaver", NOW).status()).isEqualTo(EntryStatus.EXPIRED);
    }

    @Test
    void tokenThatLeftTheLineIsNotPutBackByARedelivery() {
        this.line.append(this.product, List.of("a", "b", "c"));
        assertThat(this.remover.remove(token("b"))).isTrue();

        assertThat(this.line.append(this.product, List.of("a", "b", "c"))).isZero();

        assertThat(waiting()).containsExactly("a", "c");
    }

    @Test
    void emptyBatchAddsNothing() {
        assertThat(this.line.append(this.product, List.of())).isZero();
        assertThat(redis.hasKey(this.keys.waiting())).isFalse();
        assertThat(redis.hasKey(this.keys.stats())).isFalse();
    }

    @Test
    void largeBatchKeepsItsOrder() {
        List<String> batch = new ArrayList<>(tokens("big", 5_000));
        Collections.shuffle(batch, new java.util.Random(3));

        assertThat(this.line.append(this.product, batch)).isEqualTo(5_000);

        assertThat(waiting()).containsExactlyElementsOf(batch);
    }

    @Test
    void concurrentOverlappingAppendsKeepEveryTokenOnceWithDistinctScores() throws Exception {
        List<String> all = tokens("c", 1_000);
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Long>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int offset = t * 100;
                results.add(pool.submit(() -> {
                    start.await();
                    long added = 0;
                    // each thread walks the whole log in chunks, starting at a different place
                    for (int i = 0; i < all.size(); i += 50) {
                        int from = (offset + i) % all.size();
                        added += this.line.append(this.product, all.subList(from, Math.min(from + 50, all.size())));
                    }
                    return added;
                }));
            }
            start.countDown();
            long added = 0;
            for (Future<Long> result : results) {
                added += result.get();
            }
            assertThat(added).isEqualTo(1_000);
        }

        Map<String, Double> scores = waitingScores();
        assertThat(scores.keySet()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(scores.values()).doesNotHaveDuplicates();
        assertThat(stat("seq")).isEqualTo(1_000);
        assertThat(stat("enteredTotal")).isEqualTo(1_000);
    }
}
