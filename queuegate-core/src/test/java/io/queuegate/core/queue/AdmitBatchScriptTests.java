package io.queuegate.core.queue;

import java.util.List;
import java.util.Map;

import io.queuegate.core.testing.UnrelayedChanges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.RecordId;

import static org.assertj.core.api.Assertions.assertThat;

class AdmitBatchScriptTests extends RedisScriptTestSupport {

    @Test
    void aDeletedQueueTellsItsLineExpiredAdmitsNobodyAndIsDrainedOnceEmptyAfterTheGrace() {
        configure(1, 100, 60, true);
        this.line.append(this.product, List.of("admitted", "a", "b", "c"));
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(1);
        this.store.markDeleted(this.product, NOW);
        assertThat(this.store.findSettings(this.product).orElseThrow().open()).isFalse();

        AdmissionResult first = this.admission.admit(this.product, NOW + 1000, 2);
        assertThat(first.admitted()).isZero();
        assertThat(first.expired()).isEqualTo(2);
        assertThat(waiting()).containsExactly("c");
        assertThat(redis.opsForSet().members(this.keys.gone())).containsExactlyInAnyOrder("a", "b");
        // the last enters of the log go to gone, not to the line
        assertThat(this.line.append(this.product, List.of("late"))).isZero();
        assertThat(redis.opsForSet().isMember(this.keys.gone(), "late")).isTrue();

        AdmissionResult second = this.admission.admit(this.product, NOW + 2000, 100);
        assertThat(waiting()).isEmpty();
        assertThat(second.drained()).as("an entry is still held").isFalse();
        redis.delete(this.keys.audit());
        // the entry expires 60 s after its admission; the grace ends 60 s after the deletion
        assertThat(this.admission.admit(this.product, NOW + 59_000, 100).drained()).isFalse();
        AdmissionResult last = this.admission.admit(this.product, NOW + 61_000, 100);
        assertThat(last.expired()).isEqualTo(1);
        assertThat(last.drained()).as("audit of the expiry not relayed yet").isFalse();
        redis.delete(this.keys.audit());
        assertThat(this.admission.admit(this.product, NOW + 62_000, 100).drained()).isTrue();

        // saving settings creates it again
        this.store.save(this.product, new QueueSettings(1, 100, 60, true));
        assertThat(this.admission.admit(this.product, NOW + 63_000, 100).drained()).isFalse();
    }

    @Test
    void heldUsersKeepTheirPlaceAndArePassedOverUntilReleased() {
        configure(3, 100, 60, true);
        this.line.append(this.product, List.of("a", "held-1", "b", "held-2", "c", "d", "e"));
        redis.opsForSet().add(this.keys.held(), "held-1", "held-2", "never-entered");

        AdmissionResult first = this.admission.admit(this.product, NOW, 100);

        assertThat(first.admitted()).isEqualTo(3);
        assertThat(entry()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(waiting()).containsExactly("held-1", "held-2", "d", "e");
        // a bound of one admits the first user not held, however many held users come before
        redis.opsForZSet().removeRange(this.keys.entry(), 0, -1);
        assertThat(this.admission.admit(this.product, NOW + 1000, 1).admitted()).isEqualTo(1);
        assertThat(entry()).containsExactly("d");
        assertThat(this.admission.admit(this.product, NOW + 2000, 100).admitted()).isEqualTo(1);
        assertThat(waiting()).containsExactly("held-1", "held-2");
        assertThat(this.admission.admit(this.product, NOW + 3000, 100).admitted()).isZero();

        redis.opsForSet().remove(this.keys.held(), "held-2");
        assertThat(this.admission.admit(this.product, NOW + 4000, 100).admitted()).isEqualTo(1);
        assertThat(entry()).contains("held-2").doesNotContain("held-1");
        assertThat(waiting()).containsExactly("held-1");
    }

    @Test
    void unknownQueueAdmitsNobodyAndWritesNothing() {
        this.line.append(this.product, tokens("t", 5));

        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(AdmissionResult.UNKNOWN_QUEUE);
        @SuppressWarnings("unchecked")
        List<Object> raw = redis.execute(QueueScripts.ADMIT_BATCH,
                List.of(this.keys.waiting(), this.keys.entry(), this.keys.settings(), this.keys.stats()),
                Long.toString(NOW), "100");

        assertThat(raw).containsExactly(-1L);
        assertThat(waiting()).hasSize(5);
        assertThat(redis.hasKey(this.keys.entry())).isFalse();
        assertThat(redis.opsForHash().hasKey(this.keys.stats(), "bucket")).isFalse();
        assertThat(stat("admittedTotal")).isZero();
    }

    @ParameterizedTest(name = "maxActive={0} rate={1} bound={2} waiting={3} -> {4}")
    @CsvSource({
            // limited by maxActive
            "3,    100, 100, 10, 3",
            // limited by the rate bucket
            "100,  4,   100, 10, 4",
            // limited by the bound
            "100,  100, 2,   10, 2",
            // limited by the line
            "100,  100, 100, 5,  5",
            // nobody waiting
            "100,  100, 100, 0,  0",
            // a bound of zero does nothing
            "100,  100, 0,   10, 0" })
    void admitsTheSmallestLimitFromTheHeadInOrder(int maxActive, int rate, int bound, int waiting, int expected) {
        configure(maxActive, rate, 60, true);
        List<String> all = tokens("t", waiting);
        this.line.append(this.product, all);

        AdmissionResult result = this.admission.admit(this.product, NOW, bound);

        assertThat(result).isEqualTo(new AdmissionResult(expected, 0, expected, waiting - expected));
        assertThat(entry()).containsExactlyInAnyOrderElementsOf(all.subList(0, expected));
        assertThat(waiting()).containsExactlyElementsOf(all.subList(expected, waiting));
        assertThat(stat("admittedTotal")).isEqualTo(expected);
    }

    @Test
    void aRedisProcessThatTookOverTheLineAdmitsNobodyUntilTheRestoreStampedIt() {
        configure(5, 100, 60, true);
        List<String> all = tokens("t", 4);
        this.line.append(this.product, all);
        String run = (String) redis.opsForHash().get(this.keys.stats(), "run");
        assertThat(run).as("the append stamps the line with the process that wrote it").isNotBlank();
        // as a Redis restarted from a snapshot, or a promoted replica, finds the line: stamped by another process
        redis.opsForHash().put(this.keys.stats(), "run", "0123456789abcdef0123456789abcdef01234567");

        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(0, 0, 0, 4));
        assertThat(redis.hasKey(this.keys.entry())).isFalse();

        redis.opsForHash().put(this.keys.stats(), "run", run);
        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(4, 0, 4, 0));
    }

    @Test
    void admitsOnlyUpToTheFreeSlots() {
        configure(5, 100, 60, true);
        List<String> all = tokens("t", 10);
        this.line.append(this.product, all);

        assertThat(this.admission.admit(this.product, NOW, 3)).isEqualTo(new AdmissionResult(3, 0, 3, 7));
        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(2, 0, 5, 5));
        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(0, 0, 5, 5));

        assertThat(entry()).containsExactlyInAnyOrderElementsOf(all.subList(0, 5));
        assertThat(waiting()).containsExactlyElementsOf(all.subList(5, 10));
        assertThat(stat("admittedTotal")).isEqualTo(5);
    }

    @Test
    void headOfTheLineIsAdmittedFirstWhateverTheTokensLookLike() {
        configure(2, 100, 60, true);
        this.line.append(this.product, List.of("zz", "aa", "mm"));

        this.admission.admit(this.product, NOW, 100);

        assertThat(entry()).containsExactlyInAnyOrder("zz", "aa");
        assertThat(waiting()).containsExactly("mm");
    }

    @Test
    void entryScoreIsNowPlusTheTtl() {
        configure(10, 100, 120, true);
        this.line.append(this.product, tokens("t", 4));

        this.admission.admit(this.product, NOW, 100);

        assertThat(entryScores()).hasSize(4).allSatisfy((token, score) ->
                assertThat(score.longValue()).isEqualTo(NOW + 120_000));
    }

    @Test
    void expiredEntriesAreRemovedFirstAndTheirSlotsReusedInTheSameCall() {
        configure(3, 1_000, 10, true);
        List<String> all = tokens("t", 6);
        this.line.append(this.product, all);
        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(3, 0, 3, 3));

        // one millisecond before expiry: still held, nothing admitted
        assertThat(this.admission.admit(this.product, NOW + 9_999, 100)).isEqualTo(new AdmissionResult(0, 0, 3, 3));
        // score == now counts as expired
        assertThat(this.admission.admit(this.product, NOW + 10_000, 100)).isEqualTo(new AdmissionResult(3, 3, 3, 0));

        assertThat(entryScores()).containsOnlyKeys(all.subList(3, 6))
            .allSatisfy((token, score) -> assertThat(score.longValue()).isEqualTo(NOW + 20_000));
        assertThat(stat("admittedTotal")).isEqualTo(6);
        assertThat(stat("expiredTotal")).isEqualTo(3);
    }

    @Test
    void expiredUsersAreGoneForGoodAndAuditedByUserId() {
        configure(2, 1_000, 10, true);
        this.line.append(this.product, List.of("a", "b", "c"));
        this.admission.admit(this.product, NOW, 100);

        assertThat(this.admission.admit(this.product, NOW + 10_000, 100)).isEqualTo(new AdmissionResult(1, 2, 1, 0));

        assertThat(gone()).containsExactlyInAnyOrder("a", "b");
        assertThat(entry()).containsExactly("c");
        assertThat(status("a", NOW).status()).isEqualTo(TokenStatus.EXPIRED);
        // a late or repeated enter event does not bring them back
        assertThat(this.line.append(this.product, List.of("a", "b"))).isZero();
        assertThat(waiting()).isEmpty();
        var audit = redis.opsForStream().range(this.keys.audit(), org.springframework.data.domain.Range.unbounded());
        assertThat(audit).extracting(record -> record.getValue().get("type") + " " + record.getValue().get("users"))
            .containsExactly("ADMITTED a,b", "EXPIRED a,b", "ADMITTED c");
    }

    @Test
    void aLargeStepMovesAndExpiresEveryoneInSlices() {
        configure(100_000, 100_000, 10, true);
        List<String> all = tokens("big", 4_500);
        this.line.append(this.product, all);

        assertThat(this.admission.admit(this.product, NOW, 4_500).admitted()).isEqualTo(4_500);
        assertThat(entry()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(entryScores().values()).containsOnly(NOW + 10_000.0);

        assertThat(this.admission.admit(this.product, NOW + 10_000, 4_500).expired()).isEqualTo(4_500);
        assertThat(gone()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(entry()).isEmpty();
    }

    @Test
    void partialExpiryFreesOnlyTheExpiredSlots() {
        configure(3, 1_000, 10, true);
        List<String> all = tokens("t", 6);
        this.line.append(this.product, all);
        this.admission.admit(this.product, NOW, 2);
        this.admission.admit(this.product, NOW + 1_000, 1);

        AdmissionResult result = this.admission.admit(this.product, NOW + 10_500, 100);

        assertThat(result).isEqualTo(new AdmissionResult(2, 2, 3, 1));
        assertThat(entryScores()).containsExactlyEntriesOf(orderedMap(
                all.get(2), NOW + 11_000.0,
                all.get(3), NOW + 20_500.0,
                all.get(4), NOW + 20_500.0));
        assertThat(waiting()).containsExactly(all.get(5));
    }

    @Test
    void closedQueueAdmitsNobodyButStillExpires() {
        configure(2, 1_000, 10, true);
        List<String> all = tokens("t", 5);
        this.line.append(this.product, all);
        this.admission.admit(this.product, NOW, 100);
        configure(2, 1_000, 10, false);

        assertThat(this.admission.admit(this.product, NOW + 10_000, 100)).isEqualTo(new AdmissionResult(0, 2, 0, 3));

        assertThat(entry()).isEmpty();
        assertThat(waiting()).containsExactlyElementsOf(all.subList(2, 5));
        assertThat(stat("expiredTotal")).isEqualTo(2);
        assertThat(stat("admittedTotal")).isEqualTo(2);
    }

    @Test
    void queueClosedFromTheStartAdmitsNobody() {
        configure(10, 1_000, 10, false);
        this.line.append(this.product, tokens("t", 5));

        assertThat(this.admission.admit(this.product, NOW, 100)).isEqualTo(new AdmissionResult(0, 0, 0, 5));
        assertThat(entry()).isEmpty();
        assertThat(stat("admittedTotal")).isZero();
    }

    @Test
    void rateBucketAdmitsAtMostOneSecondsWorthAtTheSameInstant() {
        configure(1_000, 10, 3_600, true);
        List<String> all = tokens("t", 100);
        this.line.append(this.product, all);

        long admitted = 0;
        for (int call = 0; call < 10; call++) {
            admitted += this.admission.admit(this.product, NOW, 1_000).admitted();
        }
        assertThat(admitted).isEqualTo(10);

        // half a second refills half the rate
        assertThat(this.admission.admit(this.product, NOW + 500, 1_000).admitted()).isEqualTo(5);
        assertThat(this.admission.admit(this.product, NOW + 500, 1_000).admitted()).isZero();
        // 100 ms refills one
        assertThat(this.admission.admit(this.product, NOW + 600, 1_000).admitted()).isEqualTo(1);
        // a long pause never stores more than one second of admissions
        assertThat(this.admission.admit(this.product, NOW + 60_000, 1_000).admitted()).isEqualTo(10);
        assertThat(this.admission.admit(this.product, NOW + 60_000, 1_000).admitted()).isZero();

        assertThat(entry()).containsExactlyInAnyOrderElementsOf(all.subList(0, 26));
        assertThat(waiting()).containsExactlyElementsOf(all.subList(26, 100));
        assertThat(stat("admittedTotal")).isEqualTo(26);
    }

    @Test
    void smallBatchesShareOneBucket() {
        configure(1_000, 10, 3_600, true);
        this.line.append(this.product, tokens("t", 100));

        List<Long> admitted = new java.util.ArrayList<>();
        for (int call = 0; call < 5; call++) {
            admitted.add(this.admission.admit(this.product, NOW, 3).admitted());
        }

        assertThat(admitted).containsExactly(3L, 3L, 3L, 1L, 0L);
    }

    @Test
    void fractionalRefillsAccumulate() {
        configure(1_000, 10, 3_600, true);
        this.line.append(this.product, tokens("t", 100));
        this.admission.admit(this.product, NOW, 1_000);

        // 0.5 of an admission each 50 ms: nothing, then one
        assertThat(this.admission.admit(this.product, NOW + 50, 1_000).admitted()).isZero();
        assertThat(this.admission.admit(this.product, NOW + 100, 1_000).admitted()).isEqualTo(1);
        assertThat(this.admission.admit(this.product, NOW + 150, 1_000).admitted()).isZero();
        assertThat(this.admission.admit(this.product, NOW + 200, 1_000).admitted()).isEqualTo(1);
    }

    @Test
    void closedQueueDoesNotBankMoreThanOneSecond() {
        configure(1_000, 10, 3_600, false);
        this.line.append(this.product, tokens("t", 100));
        this.admission.admit(this.product, NOW, 1_000);
        this.admission.admit(this.product, NOW + 30_000, 1_000);
        configure(1_000, 10, 3_600, true);

        assertThat(this.admission.admit(this.product, NOW + 30_000, 1_000).admitted()).isEqualTo(10);
    }

    @Test
    void loweringMaxActiveBelowActiveAdmitsZeroNeverNegative() {
        configure(5, 1_000, 60, true);
        List<String> all = tokens("t", 10);
        this.line.append(this.product, all);
        this.admission.admit(this.product, NOW, 100);
        configure(2, 1_000, 60, true);

        assertThat(this.admission.admit(this.product, NOW + 1_000, 100)).isEqualTo(new AdmissionResult(0, 0, 5, 5));

        assertThat(entry()).hasSize(5);
        assertThat(waiting()).containsExactlyElementsOf(all.subList(5, 10));
        assertThat(stat("admittedTotal")).isEqualTo(5);

        // after they expire only the new, lower limit is admitted
        assertThat(this.admission.admit(this.product, NOW + 60_000, 100)).isEqualTo(new AdmissionResult(2, 5, 2, 3));
    }

    @Test
    void boundCapsExpiredRemovalAndAdmission() {
        configure(10, 1_000, 10, true);
        List<String> all = tokens("t", 12);
        this.line.append(this.product, all);
        assertThat(this.admission.admit(this.product, NOW, 6).admitted()).isEqualTo(6);

        // six have expired; the bound lets two go and two in
        assertThat(this.admission.admit(this.product, NOW + 10_000, 2)).isEqualTo(new AdmissionResult(2, 2, 6, 4));
        Map<String, Double> scores = entryScores();
        assertThat(scores).hasSize(6);
        assertThat(scores.values().stream().filter((s) -> s == NOW + 10_000.0)).hasSize(4);
        assertThat(scores.values().stream().filter((s) -> s == NOW + 20_000.0)).hasSize(2);
        assertThat(scores).doesNotContainKeys(all.get(0), all.get(1));

        // the next call removes the four still expired, not the fresh ones
        assertThat(this.admission.admit(this.product, NOW + 10_000, 100)).isEqualTo(new AdmissionResult(4, 4, 6, 0));
        assertThat(entryScores().values()).allSatisfy((s) -> assertThat(s).isEqualTo(NOW + 20_000.0));
        assertThat(stat("expiredTotal")).isEqualTo(6);
        assertThat(stat("admittedTotal")).isEqualTo(12);
    }

    @Test
    void expiryRunsWithAnEmptyLine() {
        configure(10, 1_000, 10, true);
        this.line.append(this.product, tokens("t", 3));
        this.admission.admit(this.product, NOW, 100);

        assertThat(this.admission.admit(this.product, NOW + 10_000, 100)).isEqualTo(new AdmissionResult(0, 3, 0, 0));
        assertThat(redis.hasKey(this.keys.entry())).isFalse();
        assertThat(stat("expiredTotal")).isEqualTo(3);
    }

    @Test
    void countersAccumulateOverManyCalls() {
        configure(4, 1_000, 5, true);
        this.line.append(this.product, tokens("t", 20));

        long admitted = 0;
        long expired = 0;
        for (int step = 0; step < 10; step++) {
            AdmissionResult result = this.admission.admit(this.product, NOW + step * 5_000L, 100);
            admitted += result.admitted();
            expired += result.expired();
            assertThat(result.active()).isLessThanOrEqualTo(4);
            assertThat(result.active()).isEqualTo(redis.opsForZSet().zCard(this.keys.entry()));
            assertThat(result.waiting()).isEqualTo(redis.opsForZSet().zCard(this.keys.waiting()));
        }

        assertThat(admitted).isEqualTo(20);
        assertThat(expired).isEqualTo(20);
        assertThat(stat("admittedTotal")).isEqualTo(20);
        assertThat(stat("expiredTotal")).isEqualTo(20);
        assertThat(this.store.find(this.product)).get().extracting(QueueView::admittedTotal).isEqualTo(20L);
    }

    @Test
    void largeAdmissionIsWrittenInChunksWithoutLosingAnyone() {
        configure(10_000, 10_000, 60, true);
        List<String> all = tokens("t", 4_321);
        this.line.append(this.product, all);

        assertThat(this.admission.admit(this.product, NOW, 5_000)).isEqualTo(new AdmissionResult(4_321, 0, 4_321, 0));

        assertThat(entryScores()).hasSize(4_321).containsOnlyKeys(all)
            .allSatisfy((token, score) -> assertThat(score.longValue()).isEqualTo(NOW + 60_000));
        assertThat(redis.hasKey(this.keys.waiting())).isFalse();
    }

    @Test
    void redisTimeIsUsedWhenNowIsZero() {
        configure(10, 1_000, 60, true);
        this.line.append(this.product, tokens("t", 3));
        long before = System.currentTimeMillis();

        assertThat(this.admission.admit(this.product, ScriptTime.REDIS_TIME, 100).admitted()).isEqualTo(3);

        // Redis runs on this host: its clock is ours, give or take a little
        assertThat(entryScores().values()).allSatisfy((score) ->
                assertThat(score.longValue()).isBetween(before + 60_000 - 5_000, System.currentTimeMillis() + 60_000 + 5_000));
    }

    private static Map<String, Double> orderedMap(Object... pairs) {
        Map<String, Double> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (Double) pairs[i + 1]);
        }
        return map;
    }

    @Test
    void atTheAuditBoundTheStepHoldsChangingNothingAndAdmitsOnceTheRelayCaughtUp() {
        configure(10, 100, 1, true);
        this.line.append(this.product, tokens("t", 6));
        assertThat(this.admission.admit(this.product, NOW, 2, "seed", 3).admitted()).isEqualTo(2);
        // the admission and a leave, neither relayed: below the bound of three, the next step goes on (and writes two)
        UnrelayedChanges.add(redis, this.keys.audit(), 1);
        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(2);

        AdmissionResult atTwo = this.admission.admit(this.product, NOW + 2_000, 2, "seed", 3);
        assertThat(atTwo.auditBacklogFull()).isFalse();
        assertThat(atTwo.admitted()).isEqualTo(2);
        assertThat(atTwo.expired()).isEqualTo(2);
        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(4);

        // at the bound: nobody admitted, nobody expired (the entries ran out at NOW + 3,000), nothing written
        Map<Object, Object> stats = redis.opsForHash().entries(this.keys.stats());
        List<String> entries = entry();
        List<String> line = waiting();
        AdmissionResult held = this.admission.admit(this.product, NOW + 5_000, 2, "seed", 3);
        assertThat(held).isEqualTo(new AdmissionResult(0, 0, 2, 2, 0, false, true));
        assertThat(entry()).isEqualTo(entries);
        assertThat(waiting()).isEqualTo(line);
        assertThat(redis.opsForHash().entries(this.keys.stats())).isEqualTo(stats);
        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(4);

        // the relay publishes two: below the bound, the step expires and admits again
        List<MapRecord<String, Object, Object>> relayed = redis
            .opsForStream()
            .range(this.keys.audit(), Range.unbounded(),
                    Limit.limit().count(2));
        redis.opsForStream().delete(this.keys.audit(), relayed.stream()
            .map(MapRecord::getId)
            .toArray(RecordId[]::new));
        AdmissionResult resumed = this.admission.admit(this.product, NOW + 6_000, 2, "seed", 3);
        assertThat(resumed.auditBacklogFull()).isFalse();
        assertThat(resumed.expired()).isEqualTo(2);
        assertThat(resumed.admitted()).isEqualTo(2);
    }

    @Test
    void noChangeIsTrimmedHoweverLongTheRelayIsAway() {
        configure(10, 100, 60, true);
        this.line.append(this.product, tokens("t", 3));
        // more than the 100,000 the stream was once capped at, none of them relayed
        UnrelayedChanges.add(redis, this.keys.audit(), 100_200);
        String first = UnrelayedChanges.firstId(redis, this.keys.audit());

        assertThat(this.admission.admit(this.product, NOW, 100, "seed", 200_000).admitted()).isEqualTo(3);

        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(100_201);
        assertThat(UnrelayedChanges.firstId(redis, this.keys.audit())).isEqualTo(first);
    }

    @Test
    void theDefaultBoundIsAHundredThousandUnrelayedChanges() {
        configure(10, 100, 60, true);
        this.line.append(this.product, tokens("t", 3));
        UnrelayedChanges.add(redis, this.keys.audit(), 100_000);

        assertThat(this.admission.admit(this.product, NOW, 100).auditBacklogFull()).isTrue();
        assertThat(waiting()).hasSize(3);
        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(100_000);
    }
}
