package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The pace admit_batch.lua measures (admissions per second actually made) and the pace read_status.lua answers,
 * driven by a fixed clock: one admission step every 200 ms, as the worker ticks.
 */
class PaceScriptTests extends RedisScriptTestSupport {

    private static final long STEP_MS = 200;

    @Test
    void capacityLimitedLineReadsItsCapacityOverTheHoldingTimeNotTheRate() {
        // 5 places, each held 2 s (nobody books; entries expire), admitPerSecond 100: 2.5 admissions per second
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 300));

        long now = steps(NOW, 40_000);

        assertThat(measuredPace()).isCloseTo(2.5, within(0.15));
        assertThat(status("t-00300", now).pace()).isCloseTo(2.5, within(0.15));
    }

    @Test
    void betweenTwoWavesThePublishedPaceHoldsStill() {
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 300));
        long now = steps(NOW, 20_000);

        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int i = 0; i < 20; i++) {
            now = steps(now, STEP_MS);
            lowest = Math.min(lowest, measuredPace());
            highest = Math.max(highest, measuredPace());
        }

        assertThat(highest - lowest).as("swing over two waves").isLessThan(0.1);
    }

    @Test
    void aLineThatSlowsDownIsFollowedBeforeItsNextWave() {
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 300));
        long now = steps(NOW, 20_000);

        // places are now held for a minute: after twice the expected gap the pace starts to fall
        configure(5, 100, 60, true);
        now = steps(now, 2_000);
        now = steps(now, 10_000);

        assertThat(measuredPace()).isLessThan(2.0);
    }

    @Test
    void rateLimitedLineReadsTheRate() {
        configure(100_000, 20, 600, true);
        this.line.append(this.product, tokens("t", 2_000));

        long now = steps(NOW, 30_000);

        assertThat(measuredPace()).isCloseTo(20, within(1.0));
        assertThat(status("t-02000", now).pace()).isCloseTo(20, within(1.0));
    }

    @Test
    void beforeTenSecondsOfHistoryPollsEstimateWithAdmitPerSecond() {
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 300));

        long now = steps(NOW, 8_000);

        assertThat(redis.opsForHash().hasKey(this.keys.stats(), "pace")).isFalse();
        assertThat(status("t-00300", now).pace()).isEqualTo(100);

        // ten seconds of weighted history take about twelve and a half of measuring
        now = steps(now, 6_000);
        assertThat(redis.opsForHash().hasKey(this.keys.stats(), "pace")).isTrue();
        assertThat(status("t-00300", now).pace()).isLessThan(10);
    }

    @Test
    void theAnsweredPaceNeverExceedsAdmitPerSecond() {
        configure(100_000, 20, 600, true);
        this.line.append(this.product, tokens("t", 2_000));
        long now = steps(NOW, 20_000);

        configure(100_000, 5, 600, true);

        assertThat(status("t-02000", now).pace()).isEqualTo(5);
    }

    @Test
    void anIdleLineKeepsItsPace() {
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 60));
        long now = steps(NOW, 20_000);
        double before = measuredPace();

        // the line runs dry and stays empty for a minute: nothing could be admitted, so nothing is learned
        now = steps(now, 60_000);
        assertThat(waiting()).isEmpty();

        assertThat(measuredPace()).isCloseTo(before, within(0.3));
        assertThat(measuredPace()).isCloseTo(2.5, within(0.3));
    }

    @Test
    void theStepThatDrainsTheLineIsNotCountedAsTheLinesPace() {
        configure(100_000, 20, 600, true);
        this.line.append(this.product, tokens("t", 2_000));
        long now = steps(NOW, 15_000);
        double before = measuredPace();

        // the line is down to three people: the next step admits them all, limited by the line, not the pace
        redis.delete(this.keys.waiting());
        this.line.append(this.product, List.of("x", "y", "z"));
        assertThat(this.admission.admit(this.product, now + STEP_MS, 10_000).admitted()).isEqualTo(3);

        assertThat(measuredPace()).isEqualTo(before);
    }

    @Test
    void aLineThatCannotMoveReadsAPaceOfZero() {
        // capacity is full after the first step and nobody leaves: the honest estimate is no estimate
        configure(1_000, 1_000, 600, true);
        this.line.append(this.product, tokens("t", 2_000));

        long now = steps(NOW, 15_000);

        assertThat(measuredPace()).isZero();
        assertThat(status("t-02000", now).pace()).isZero();
    }

    @Test
    void aSoldOutLineLearnsNothingWhileItStands() {
        configure(5, 100, 2, true);
        this.line.append(this.product, tokens("t", 300));
        long now = steps(NOW, 20_000);
        double before = measuredPace();

        redis.opsForValue().set(this.keys.stock(), "0");
        now = steps(now, 30_000);

        assertThat(measuredPace()).isEqualTo(before);
    }

    /** One admission step every 200 ms from {@code from} for {@code durationMs}; answers the time of the last. */
    private long steps(long from, long durationMs) {
        long now = from;
        for (long t = STEP_MS; t <= durationMs; t += STEP_MS) {
            now = from + t;
            this.admission.admit(this.product, now, 10_000);
        }
        return now;
    }

    private double measuredPace() {
        Object pace = redis.opsForHash().get(this.keys.stats(), "pace");
        assertThat(pace).as("a measured pace").isNotNull();
        return Double.parseDouble(pace.toString());
    }
}
