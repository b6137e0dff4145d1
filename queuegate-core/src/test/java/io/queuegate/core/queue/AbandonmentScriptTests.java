package io.queuegate.core.queue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * abandonAfterSeconds: read_status.lua records when each waiting user polled in seen:{p}, append_waiting.lua counts
 * joining as being seen, and admit_batch.lua takes the places of those not seen for that long before it admits.
 */
class AbandonmentScriptTests extends RedisScriptTestSupport {

    @Test
    void aUserWhoStoppedPollingLosesThePlaceBeforePromotionAndEveryoneBehindMovesUp() {
        configure(1, 100, 60, true);
        abandonAfter(30);
        this.line.append(this.product, List.of("a", "b", "c", "d"));
        poll(NOW, "a", "b", "c", "d");
        poll(NOW + 20_000, "b", "d");

        AdmissionResult result = this.admission.admit(this.product, NOW + 31_000, 100);

        assertThat(result.abandoned()).isEqualTo(2);
        assertThat(result.admitted()).isEqualTo(1);
        assertThat(entry()).containsExactly("b");
        assertThat(waiting()).containsExactly("d");
        assertThat(status("a", NOW + 31_000).status()).isEqualTo(TokenStatus.EXPIRED);
        assertThat(status("c", NOW + 31_000).status()).isEqualTo(TokenStatus.EXPIRED);
        assertThat(status("d", NOW + 31_000).position()).isEqualTo(1);
        assertThat(stat("abandonedTotal")).isEqualTo(2);
        assertThat(redis.opsForZSet().range(this.keys.seen(), 0, -1)).containsExactly("d");
    }

    @Test
    void pollingKeepsThePlace() {
        configure(1, 100, 600, true);
        abandonAfter(30);
        this.line.append(this.product, List.of("a", "b"));
        this.admission.admit(this.product, NOW, 100);
        for (long t = NOW; t <= NOW + 120_000; t += 10_000) {
            poll(t, "b");
            assertThat(this.admission.admit(this.product, t, 100).abandoned()).isZero();
        }

        assertThat(status("b", NOW + 120_000).position()).isEqualTo(1);
    }

    @Test
    void joiningCountsAsBeingSeen() {
        // no free place, so nobody is admitted meanwhile
        configure(0, 100, 60, true);
        abandonAfter(30);
        this.line.append(this.product, List.of("a"));

        Double joined = redis.opsForZSet().score(this.keys.seen(), "a");
        assertThat(joined).isNotNull();
        assertThat(this.admission.admit(this.product, joined.longValue() + 29_000, 100).abandoned()).isZero();
        assertThat(this.admission.admit(this.product, joined.longValue() + 30_001, 100).abandoned()).isEqualTo(1);
        assertThat(waiting()).isEmpty();
        assertThat(gone()).containsExactly("a");
    }

    @Test
    void withoutTheSettingNobodyIsTrackedOrAbandoned() {
        configure(1, 100, 60, true);
        this.line.append(this.product, List.of("a", "b"));
        poll(NOW, "b");

        assertThat(this.admission.admit(this.product, NOW + 86_400_000, 100).abandoned()).isZero();
        assertThat(redis.hasKey(this.keys.seen())).isFalse();
        assertThat(waiting()).containsExactly("b");
    }

    @Test
    void oneStepTakesOutAtMostItsBoundAndUsersWhoLeftCostNothing() {
        configure(0, 100, 60, true);
        abandonAfter(30);
        this.line.append(this.product, tokens("t", 10));
        poll(NOW, tokens("t", 10).toArray(String[]::new));
        this.remover.remove(token("t-00001"));

        AdmissionResult first = this.admission.admit(this.product, NOW + 31_000, 4);
        AdmissionResult second = this.admission.admit(this.product, NOW + 31_000, 100);

        // t-00001 left: its stale time is dropped without counting it
        assertThat(first.abandoned()).isEqualTo(3);
        assertThat(second.abandoned()).isEqualTo(6);
        assertThat(waiting()).isEmpty();
        assertThat(redis.hasKey(this.keys.seen())).isFalse();
        assertThat(redis.opsForStream().range(this.keys.audit(), org.springframework.data.domain.Range.unbounded()))
            .extracting((record) -> record.getValue().get("type"))
            .contains("ABANDONED");
    }

    @Test
    void admittedUsersLeaveSeen() {
        configure(2, 100, 60, true);
        abandonAfter(30);
        this.line.append(this.product, List.of("a", "b", "c"));

        this.admission.admit(this.product, NOW, 100);

        assertThat(redis.opsForZSet().range(this.keys.seen(), 0, -1)).containsExactly("c");
    }

    @Test
    void underAPollBudgetAlonePollTimesOlderThanAnHourAreForgotten() {
        configure(0, 100, 60, true);
        redis.opsForHash().put(this.keys.settings(), "maxPollsPerSecond", "100");
        this.line.append(this.product, List.of("a", "b"));
        poll(NOW, "a");
        poll(NOW + 3_000_000, "b");

        AdmissionResult result = this.admission.admit(this.product, NOW + 3_600_001, 100);

        assertThat(result.abandoned()).isZero();
        assertThat(waiting()).containsExactly("a", "b");
        assertThat(redis.opsForZSet().range(this.keys.seen(), 0, -1)).containsExactly("b");
    }

    private void abandonAfter(int seconds) {
        redis.opsForHash().putAll(this.keys.settings(), Map.of("abandonAfterSeconds", Integer.toString(seconds)));
    }

    private void poll(long now, String... users) {
        this.statusReader.readAll(this.product, List.of(users), now);
    }
}
