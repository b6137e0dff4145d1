package io.queuegate.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TargetTests {

    @Test
    void aMinimumHoldsFromItsBoundUp() {
        Target target = Target.atLeast(0.6);

        assertThat(target.holds(0.6)).isTrue();
        assertThat(target.holds(0.75)).isTrue();
        assertThat(target.holds(0.599)).isFalse();
    }

    @Test
    void aMaximumHoldsUpToItsBound() {
        Target target = Target.atMost(20, "ms");

        assertThat(target.holds(20)).isTrue();
        assertThat(target.holds(19.5)).isTrue();
        assertThat(target.holds(20.01)).isFalse();
    }

    @Test
    void whatWasNotMeasuredIsNotJudged() {
        assertThat(Target.atLeast(1.5).holds(null)).isNull();
        assertThat(Target.atLeast(1.5).holds("failed")).isNull();
        assertThat(Target.atMost(2).holds(Double.NaN)).isNull();
    }

    @Test
    void theTargetColumnShowsTheBoundWithItsUnit() {
        assertThat(Target.atLeast(0.6).text()).isEqualTo("≥ 0.6");
        assertThat(Target.atLeast(1.5).text()).isEqualTo("≥ 1.5");
        assertThat(Target.atMost(2).text()).isEqualTo("≤ 2");
        assertThat(Target.atMost(130, "B").text()).isEqualTo("≤ 130 B");
        assertThat(Target.atMost(10_000, "ms").text()).isEqualTo("≤ 10,000 ms");
    }
}
