package io.queuegate.bench;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Each cold run is measured against its own warm rate: the median of its windows from 60 s on. */
class ColdStartReportTests {

    /** 18 windows of 5 s: 1,000 and 3,000 in the first 10 s, then 6,000 up to 30 s, then about 10,000. */
    private static final ColdStartReport.Series RUN = new ColdStartReport.Series(95.0, List.of(1_000L, 3_000L,
            6_000L, 6_000L, 6_000L, 6_000L, 8_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L, 9_000L, 11_000L,
            10_000L, 10_000L, 12_000L, 10_000L));

    @Test
    void theFirstSecondsAreSharesOfTheRunsOwnWarmRate() {
        ColdStartReport.Shares shares = ColdStartReport.shares(RUN, 5);

        assertThat(shares.warm()).as("median of 9,000 10,000 10,000 10,000 11,000 12,000").isEqualTo(10_000);
        assertThat(shares.first10Share()).isCloseTo(0.2, within(1e-9));
        assertThat(shares.first30Share()).isCloseTo(28_000 / 6.0 / 10_000, within(1e-9));
    }

    @Test
    void theTableGivesEachRunAndTheSpreadOfItsShares() {
        ColdStartReport.Series faster = new ColdStartReport.Series(90.0, RUN.perSecond().stream()
            .map((value) -> Math.max(value, 7_000L)).toList());
        String markdown = ColdStartReport.markdown(new ColdStartReport.Runs(5, List.of(
                Map.of(ColdStartReport.QUEUEGATE, RUN), Map.of(ColdStartReport.QUEUEGATE, faster))), "chart.png");

        assertThat(markdown).contains("| 1 | 95 s | 2,000 | 4,667 | 10,000 | 20.0 % | 46.7 % |")
            .contains("| 2 | 90 s | 7,000 | 7,000 | 10,000 | 70.0 % | 70.0 % |")
            .contains("| **20.0 % – 70.0 % – 70.0 %** | **46.7 % – 70.0 % – 70.0 %** |");
    }
}
