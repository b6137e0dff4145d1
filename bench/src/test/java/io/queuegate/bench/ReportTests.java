package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTests {

    @Test
    void aRowJudgesTheValueItIsGivenAgainstItsTarget() {
        assertThat(Report.row("1a", "enters", "6,500/s", "plain no-op", 0.65, Targets.ENTERS_TO_PLAIN_NOOP, 0.65))
            .isEqualTo(String.format("| 1a | enters | 6,500/s | plain no-op | 0.65 | ≥ 0.6 | **yes** |%n"));
        assertThat(Report.row("7", "memory", "263.4 B", "bare ZSet", "1.969 ×", Targets.BYTES_PER_WAITING_USER, 263.4))
            .endsWith("| 1.969 × | ≤ 130 B | **no** |" + System.lineSeparator());
        assertThat(Report.row("1d", "seed", "4,000/s", "plain no-op", 0.4, null, null))
            .endsWith("| 0.4 | — | — |" + System.lineSeparator());
    }

    @Test
    void theRateRowsShowEachRatioWithItsYardstick(@TempDir Path dir) throws Exception {
        Map<String, Object> endpoints = new LinkedHashMap<>();
        endpoints.put(RateFigure.PLAIN_NOOP, summary(10_000, Map.of("noop-app", 150.0)));
        endpoints.put(RateFigure.IN_APP_NOOP, summary(8_000, Map.of("ingest", 180.0)));
        endpoints.put(RateFigure.SEED, summary(4_000, Map.of("seed-app", 260.0)));
        endpoints.put(RateFigure.QUEUEGATE, summary(6_500, Map.of("ingest", 330.0)));
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("machine", Map.of("cpus", 2));
        results.put("ingest", Map.of("driver", "wrk -t2 -c64", "endpoints", endpoints));
        Path report = dir.resolve("report.md");

        Report.write(BenchRun.of(results), report, dir, dir.resolve("run.json"), dir.resolve("run.png"));

        String text = Files.readString(report);
        assertThat(text).contains("| 1a | Ingest: durable enters/s", "| 0.65 | ≥ 0.6 | **yes** |");
        assertThat(text).contains("| 1b | Enters/s ÷ the seed design", "| 1.625 | ≥ 1.5 | **yes** |");
        assertThat(text).contains("| 1c | Ingest JVM's CPU per enter | 330.0 µs | plain no-op app's CPU per POST: 150.0 µs "
                + "| 2.2 | ≤ 2 | **no** |");
        assertThat(text).contains("| 1d | Seed design ÷ plain no-op", "| 0.4 | — | — |");
        assertThat(text).contains("| 1e | In-app no-op ÷ plain no-op", "| 0.8 | — | — |");
    }

    @Test
    void aRunsFiguresWrittenAsJsonReadBackToTheSameReport(@TempDir Path dir) throws Exception {
        BenchRun saved = BenchRun.JSON.readValue(Path.of("results/benchmarks.json").toFile(), BenchRun.class);
        assertThat(saved.admission().batch()).isPositive();
        assertThat(saved.e2e().timeline()).isNotEmpty();
        Path json = dir.resolve("again.json");
        Files.writeString(json, JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
            .writeValueAsString(saved));
        BenchRun again = BenchRun.JSON.readValue(json.toFile(), BenchRun.class);

        Report.write(saved, dir.resolve("saved.md"), dir, json, dir.resolve("run.png"));
        Report.write(again, dir.resolve("again.md"), dir, json, dir.resolve("run.png"));

        assertThat(Files.readString(dir.resolve("again.md"))).isEqualTo(Files.readString(dir.resolve("saved.md")))
            .contains("| 4 | Admission: one tick promoting", "| 6a | End to end:");
    }

    private static Map<String, Object> summary(long perSecond, Map<String, Double> cpuMicros) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("perSecond", perSecond);
        summary.put("p50Ms", 10.0);
        summary.put("p99Ms", 50.0);
        summary.put("cpuMicrosPerRequest", cpuMicros);
        return summary;
    }
}
