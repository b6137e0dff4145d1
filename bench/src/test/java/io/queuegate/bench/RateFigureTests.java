package io.queuegate.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateFigureTests {

    private static Map<String, Object> endpoint(String label, long perSecond, Map<String, Double> cpuMicros) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("label", label);
        summary.put("perSecond", perSecond);
        summary.put("cpuMicrosPerRequest", cpuMicros);
        return summary;
    }

    private static Map<String, Object> scenario() {
        Map<String, Object> endpoints = new LinkedHashMap<>();
        endpoints.put(RateFigure.PLAIN_NOOP, endpoint("plain no-op POST", 10_000, Map.of("noop-app", 150.0)));
        endpoints.put(RateFigure.IN_APP_NOOP, endpoint("in-app no-op POST", 8_000, Map.of("ingest", 180.0)));
        endpoints.put(RateFigure.SEED, endpoint("seed enter POST", 4_000, Map.of("seed-app", 260.0)));
        endpoints.put(RateFigure.QUEUEGATE, endpoint("enter POST", 6_500, Map.of("ingest", 270.0, "kafka", 60.0)));
        Map<String, Object> scenario = new LinkedHashMap<>();
        scenario.put("endpoints", endpoints);
        scenario.put("rounds", List.of(Map.of("key", RateFigure.PLAIN_NOOP, "round", 1)));
        return scenario;
    }

    @Test
    void queuegateIsDividedByEachYardstickOfTheSameRun() {
        RateFigure figure = RateFigure.of(scenario());

        assertThat(figure.rateRatio(RateFigure.QUEUEGATE, RateFigure.PLAIN_NOOP)).isEqualTo(0.65);
        assertThat(figure.rateRatio(RateFigure.QUEUEGATE, RateFigure.SEED)).isEqualTo(1.625);
        assertThat(figure.rateRatio(RateFigure.SEED, RateFigure.PLAIN_NOOP)).isEqualTo(0.4);
        assertThat(figure.rateRatio(RateFigure.IN_APP_NOOP, RateFigure.PLAIN_NOOP)).isEqualTo(0.8);
    }

    @Test
    void ingestsCpuPerRequestIsComparedWithThePlainNoopAppsOwn() {
        assertThat(RateFigure.of(scenario()).ingestCpuToPlainNoop()).isEqualTo(1.8);
    }

    @Test
    void aYardstickThatWasNotMeasuredLeavesItsRatiosEmpty() {
        Map<String, Object> scenario = scenario();
        ((Map<?, ?>) scenario.get("endpoints")).remove(RateFigure.SEED);
        RateFigure figure = RateFigure.of(scenario);

        assertThat(figure.rateRatio(RateFigure.QUEUEGATE, RateFigure.SEED)).isNull();
        assertThat(figure.ratios()).containsEntry("queuegateToSeed", null).containsEntry("queuegateToPlainNoop", 0.65);
        assertThat(figure.measured()).containsExactly(RateFigure.PLAIN_NOOP, RateFigure.IN_APP_NOOP,
                RateFigure.QUEUEGATE);
    }

    @Test
    void aFailedScenarioHasNoFigure() {
        assertThat(RateFigure.of(Map.of("error", "the yardstick apps did not start"))).isNull();
        assertThat(RateFigure.of(null)).isNull();
    }

    @Test
    void aRunSavedBeforeTheYardstickAppsReadsAsTheInAppNoopAndQueuegate() {
        Map<String, Object> old = new LinkedHashMap<>();
        old.put("yardstick", Map.of("perSecond", 8_000L));
        old.put("target", Map.of("perSecond", 4_000L));
        old.put("yardstickRounds", List.of(Map.of("endpoint", "no-op POST"), Map.of("endpoint", "no-op POST")));
        old.put("targetRounds", List.of(Map.of("endpoint", "enter POST"), Map.of("endpoint", "enter POST")));
        RateFigure figure = RateFigure.of(old);

        assertThat(figure.rateRatio(RateFigure.QUEUEGATE, RateFigure.IN_APP_NOOP)).isEqualTo(0.5);
        assertThat(figure.rateRatio(RateFigure.QUEUEGATE, RateFigure.PLAIN_NOOP)).isNull();
        assertThat(figure.label(RateFigure.IN_APP_NOOP)).isEqualTo("no-op POST");
        assertThat(figure.rounds()).extracting(round -> round.get("endpoint") + " " + round.get("round"))
            .containsExactly("no-op POST 1", "enter POST 1", "no-op POST 2", "enter POST 2");
    }
}
