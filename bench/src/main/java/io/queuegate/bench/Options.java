package io.queuegate.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one benchmark run does, every default filled in from its command line ({@link Arguments}). {@code --quick}
 * scales everything down to a smoke run of about two minutes; the full defaults take about ten.
 * {@code --only=yardsticks} runs no scenario of the stack: it checks the yardstick apps alone.
 */
record Options(boolean quick, Set<String> scenarios, String driver, Duration warmup, Duration duration, int rounds,
        int connections, int wrkThreads, int drainEvents, int admissionBatch, int admissionRepeats, int bookingStock,
        int e2eUsers, Duration e2eWindow, int e2eAdmitPerSecond, int e2eStock, int e2eMaxActive, Duration e2eTimeout,
        int streams, int streamsAdmitPerSecond, int streamsAdmitSeconds,
        String host, Path root, Path resultsDir, Path reportFile, String label, String command, boolean writeReport,
        String renice, String fromJson, String coldStart, String serviceJvmOptions, int redisPort) {

    static final List<String> ALL = List.of("admission", "drain", "status", "ingest", "booking", "e2e", "streams");

    /** The {@code --only} value that starts the yardstick apps without the stack and drives each briefly. */
    static final String YARDSTICKS = "yardsticks";

    boolean runs(String scenario) {
        return this.scenarios.contains(scenario);
    }

    /** Whether this run only checks the yardstick apps, without the stack. */
    boolean onlyYardsticks() {
        return this.scenarios.contains(YARDSTICKS);
    }

    /** Where this run's JSON and PNG go: committed for a full run, scratch for anything else. */
    Path outputDir() {
        return this.writeReport ? this.resultsDir : this.resultsDir.resolve("tmp");
    }

    Path rawDir() {
        return this.resultsDir.resolve("raw");
    }

    Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", this.quick ? "quick" : "full");
        out.put("label", this.label);
        out.put("scenarios", List.copyOf(this.scenarios));
        out.put("warmupSeconds", this.warmup.toSeconds());
        out.put("durationSeconds", this.duration.toSeconds());
        out.put("rounds", this.rounds);
        out.put("connections", this.connections);
        out.put("wrkThreads", this.wrkThreads);
        out.put("drainEvents", this.drainEvents);
        out.put("admissionBatch", this.admissionBatch);
        out.put("bookingStock", this.bookingStock);
        out.put("e2eUsers", this.e2eUsers);
        out.put("e2eWindowSeconds", this.e2eWindow.toSeconds());
        out.put("e2eAdmitPerSecond", this.e2eAdmitPerSecond);
        out.put("e2eStock", this.e2eStock);
        out.put("e2eMaxActive", this.e2eMaxActive);
        out.put("streams", this.streams);
        out.put("streamsAdmitPerSecond", this.streamsAdmitPerSecond);
        out.put("renice", this.renice.isEmpty() ? null : this.renice);
        return out;
    }
}
