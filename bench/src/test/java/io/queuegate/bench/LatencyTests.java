package io.queuegate.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyTests {

    @Test
    void percentilesOfNanosecondsAreReportedInMillisecondsWithinOnePercent() {
        Histogram nanos = Latency.histogram();
        for (long micros = 1; micros <= 10_000; micros++) {
            nanos.recordValue(micros * 1_000);
        }

        Latency latency = Latency.of(nanos);

        assertThat(latency.count()).isEqualTo(10_000);
        assertThat(latency.p50Ms()).isCloseTo(5.0, within(0.05));
        assertThat(latency.p99Ms()).isCloseTo(9.9, within(0.099));
        assertThat(latency.p999Ms()).isCloseTo(9.99, within(0.0999));
        assertThat(latency.maxMs()).isCloseTo(10.0, within(0.1));
    }

    @Test
    void aHistogramNothingWasRecordedInSummarisesToZeros() {
        assertThat(Latency.of(Latency.histogram())).isEqualTo(new Latency(0L, 0.0, 0.0, 0.0, 0.0, 0.0));
    }

    @Test
    void theSummaryIsInWholeMicroseconds() {
        Histogram nanos = Latency.histogram();
        nanos.recordValue(1_234_567);

        double p50Ms = Latency.of(nanos).p50Ms();

        assertThat(p50Ms).isCloseTo(1.2346, within(0.012));
        assertThat(p50Ms * 1_000).isEqualTo(Math.rint(p50Ms * 1_000));
    }
}
