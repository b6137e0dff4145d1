package io.queuegate.core.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * opensAt: users the line took in before the opening are placed, at the opening, in the order of the first 52 bits
 * of SHA1(seed + ":" + userId); later ones join behind in arrival order; nobody is admitted before; the seed is
 * published only at the opening. append_waiting.lua reads Redis TIME to tell early entrants, so the opening here is
 * set relative to the real clock and the admission steps pass times around it.
 */
class FairStartScriptTests extends RedisScriptTestSupport {

    private static final String SEED = "3f9c2a0d5e71b4c68a1f0e2d3c4b5a69";

    @Test
    void theEarlyEntrantsOrderIsRecomputableFromTheSeedAndLaterEntrantsFollowInArrivalOrder() {
        long opensAt = System.currentTimeMillis() + 3_600_000;
        configure(1_000, 1_000, 60, true);
        opensAt(opensAt);
        List<String> early = tokens("early", 50);
        this.line.append(this.product, early);

        // before the opening: nobody admitted, no position, no seed
        AdmissionResult before = this.admission.admit(this.product, opensAt - 1, 100, SEED);
        assertThat(before.admitted()).isZero();
        assertThat(status("early-00001", opensAt - 1)).satisfies((state) -> {
            assertThat(state.status()).isEqualTo(TokenStatus.WAITING);
            assertThat(state.position()).isZero();
            assertThat(state.line().opensAt()).isEqualTo(opensAt);
        });
        assertThat(redis.opsForHash().get(this.keys.stats(), "seed")).isNull();
        assertThat(waiting()).containsExactlyElementsOf(early);

        // the opening step shuffles before it admits; admit nobody here to see the whole new order
        configure(0, 1_000, 60, true);
        opensAt(opensAt);
        this.admission.admit(this.product, opensAt, 100, SEED);
        // the line writer tells early from late by Redis time: move the opening behind it for the late entrants
        opensAt(System.currentTimeMillis() - 1_000);
        this.line.append(this.product, List.of("late-1", "late-2"));

        List<String> expected = new ArrayList<>(shuffled(SEED, early));
        expected.addAll(List.of("late-1", "late-2"));
        assertThat(waiting()).containsExactlyElementsOf(expected);
        assertThat(waiting().subList(0, 50)).isNotEqualTo(early);
        assertThat(redis.opsForHash().get(this.keys.stats(), "seed")).isEqualTo(SEED);
        assertThat(this.store.find(this.product).orElseThrow().seed()).isEqualTo(SEED);
        assertThat(status(expected.getFirst(), opensAt).position()).isEqualTo(1);

        // the audit trail names the seed and the users it re-placed
        List<MapRecord<String, Object, Object>> audit = redis.opsForStream()
            .range(this.keys.audit(), Range.unbounded());
        assertThat(audit).filteredOn((record) -> "SHUFFLED".equals(record.getValue().get("type"))).singleElement()
            .satisfies((record) -> {
                assertThat(record.getValue().get("seed")).isEqualTo(SEED);
                assertThat(record.getValue().get("users").toString().split(","))
                    .containsExactlyInAnyOrderElementsOf(early);
            });

        // a later step shuffles nothing again
        this.admission.admit(this.product, opensAt + 1_000, 100, "another-seed");
        assertThat(waiting()).containsExactlyElementsOf(expected);
    }

    @Test
    void afterTheOpeningTheLineIsAdmittedFromTheShuffledHead() {
        long opensAt = System.currentTimeMillis() + 3_600_000;
        List<String> early = earlyEntrants(3, opensAt, 10);

        AdmissionResult opening = this.admission.admit(this.product, opensAt + 5, 100, SEED);

        assertThat(opening.admitted()).isEqualTo(3);
        assertThat(entry()).containsExactlyInAnyOrderElementsOf(shuffled(SEED, early).subList(0, 3));
    }

    @Test
    void aLargeOpeningIsPlacedInBoundedStepsWithOneSeedAndNobodyIsAdmittedUntilItIsDone() {
        long opensAt = System.currentTimeMillis() + 3_600_000;
        List<String> early = earlyEntrants(3, opensAt, 10);

        // four users per step: three steps place the ten, the third admits
        assertThat(this.admission.admit(this.product, opensAt, 4, SEED).admitted()).isZero();
        assertThat(status("early-00001", opensAt).position()).as("no position while placing").isZero();
        assertThat(this.admission.admit(this.product, opensAt + 200, 4, "not-used").admitted()).isZero();
        AdmissionResult last = this.admission.admit(this.product, opensAt + 400, 4, "not-used-either");

        assertThat(last.admitted()).isEqualTo(3);
        List<String> order = shuffled(SEED, early);
        assertThat(entry()).containsExactlyInAnyOrderElementsOf(order.subList(0, 3));
        assertThat(waiting()).containsExactlyElementsOf(order.subList(3, 10));
        assertThat(redis.opsForHash().get(this.keys.stats(), "seed")).isEqualTo(SEED);
        assertThat(status(order.get(3), opensAt + 400).position()).isEqualTo(1);
    }

    @Test
    void withoutAnOpeningTimeNothingIsShuffled() {
        configure(0, 1_000, 60, true);
        List<String> all = tokens("t", 20);
        this.line.append(this.product, all);

        this.admission.admit(this.product, NOW, 100, SEED);

        assertThat(waiting()).containsExactlyElementsOf(all);
        assertThat(redis.opsForHash().get(this.keys.stats(), "seed")).isNull();
    }

    @Test
    void anOpeningTimeAlreadyPastWhenTheLineFillsShufflesNobody() {
        configure(0, 1_000, 60, true);
        opensAt(System.currentTimeMillis() - 1_000);
        List<String> all = tokens("t", 20);
        this.line.append(this.product, all);

        this.admission.admit(this.product, ScriptTime.REDIS_TIME, 100, SEED);

        assertThat(waiting()).containsExactlyElementsOf(all);
    }

    /** A queue that opens at {@code opensAt}, admitting {@code maxActive} at once, and {@code count} users in line. */
    private List<String> earlyEntrants(int maxActive, long opensAt, int count) {
        configure(maxActive, 1_000, 60, true);
        opensAt(opensAt);
        List<String> early = tokens("early", count);
        this.line.append(this.product, early);
        return early;
    }

    /**
     * The published algorithm, recomputed: the early entrants sorted by the integer value of the first 13 hex digits
     * (52 bits) of the SHA-1 of {@code seed + ":" + userId} (UTF-8), ascending; equal values by user id.
     */
    static List<String> shuffled(String seed, List<String> earlyEntrants) {
        return earlyEntrants.stream()
            .sorted(Comparator.comparingLong((String user) -> Long.parseLong(sha1Hex(seed + ":" + user)
                .substring(0, 13), 16)).thenComparing(Comparator.naturalOrder()))
            .toList();
    }

    private static String sha1Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private void opensAt(long epochMillis) {
        redis.opsForHash().putAll(this.keys.settings(), Map.of("opensAt", Long.toString(epochMillis)));
    }
}
