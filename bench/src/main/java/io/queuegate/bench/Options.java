package io.queuegate.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one benchmark run does, from {@code --name=value} arguments with {@code BENCH_NAME} environment fallbacks.
 * {@code --quick} scales everything down to a smoke run of about two minutes; the full defaults take about ten.
 * {@code --only=yardsticks} runs no scenario of the stack: it checks the yardstick apps alone.
 */
record Options(boolean quick, Set<String> scenarios, String driver, Duration warmup, Duration duration, int rounds,
        int connections, int wrkThreads, int drainEvents, int admissionBatch, int admissionRepeats, int bookingStock,
        int e2eUsers, Duration e2eWindow, int e2eAdmitPerSecond, int e2eStock, int e2eMaxActive, Duration e2eTimeout,
        String host, Path root, Path resultsDir, Path reportFile, String label, String command, boolean writeReport,
        String renice, String fromJson, String serviceJvmOptions, int redisPort) {

    static final List<String> ALL = List.of("admission", "drain", "status", "ingest", "booking", "e2e");

    /** The {@code --only} value that starts the yardstick apps without the stack and drives each briefly. */
    static final String YARDSTICKS = "yardsticks";

    static Options parse(String[] args, Path root) {
        Map<String, String> given = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown argument " + arg);
            }
            String[] kv = arg.substring(2).split("=", 2);
            given.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        Lookup in = new Lookup(given);
        boolean quick = in.bool("quick", false);
        Set<String> scenarios = new LinkedHashSet<>();
        for (String name : in.string("only", String.join(",", ALL)).split(",")) {
            String trimmed = name.trim();
            if (!trimmed.isEmpty()) {
                if (!ALL.contains(trimmed) && !trimmed.equals(YARDSTICKS)) {
                    throw new IllegalArgumentException("unknown scenario " + trimmed + "; known: " + ALL + " or "
                            + YARDSTICKS + " alone");
                }
                scenarios.add(trimmed);
            }
        }
        if (scenarios.contains(YARDSTICKS) && scenarios.size() > 1) {
            throw new IllegalArgumentException("--only=" + YARDSTICKS + " runs alone: it needs no stack");
        }
        String label = in.string("label", quick ? "quick" : scenarios.contains(YARDSTICKS) ? YARDSTICKS : "full");
        Path results = root.resolve("bench/results");
        boolean defaultReport = !quick && scenarios.size() == ALL.size() && label.equals("full");
        return new Options(quick, scenarios, in.string("driver", "auto"),
                Duration.ofSeconds(in.integer("warmup", quick ? 2 : 20)),
                Duration.ofSeconds(in.integer("duration", quick ? 4 : 15)),
                in.integer("rounds", quick ? 1 : 2),
                in.integer("connections", 64),
                in.integer("wrk-threads", 2),
                in.integer("drain-events", quick ? 100_000 : 1_000_000),
                in.integer("admission-batch", 10_000),
                in.integer("admission-repeats", quick ? 3 : 7),
                in.integer("booking-stock", quick ? 5_000 : 100_000),
                in.integer("e2e-users", quick ? 20_000 : 100_000),
                Duration.ofSeconds(in.integer("e2e-window", quick ? 5 : 10)),
                in.integer("e2e-admit-per-second", quick ? 1_000 : 2_000),
                in.integer("e2e-stock", quick ? 3_000 : 20_000),
                in.integer("e2e-max-active", 10_000),
                Duration.ofSeconds(in.integer("e2e-timeout", quick ? 60 : 120)),
                in.string("host", "127.0.0.1"), root, results,
                Path.of(in.string("report", root.resolve("docs/BENCHMARKS.md").toString())),
                label, in.string("command", "./bench.sh" + (quick ? " --quick" : "")),
                in.bool("write-report", defaultReport || given.containsKey("from-json")), in.string("renice", ""),
                in.string("from-json", ""),
                // bench.sh passes the options run.sh starts the services with (scripts/lib.sh); the yardstick apps
                // take them when no service runs to copy them from
                in.string("service-jvm-options", ""),
                // the Redis the stack uses: run.sh's REDIS_PORT, so a benchmark can leave the shared Redis alone
                in.integer("redis-port", Integer.parseInt(System.getenv().getOrDefault("REDIS_PORT", "6379"))));
    }

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
        out.put("renice", this.renice.isEmpty() ? null : this.renice);
        return out;
    }

    private record Lookup(Map<String, String> given) {

        String string(String name, String fallback) {
            String value = this.given.get(name);
            if (value == null) {
                value = System.getenv("BENCH_" + name.toUpperCase().replace('-', '_'));
            }
            return value == null || value.isBlank() ? fallback : value;
        }

        int integer(String name, int fallback) {
            return Integer.parseInt(string(name, Integer.toString(fallback)).replace("_", ""));
        }

        boolean bool(String name, boolean fallback) {
            return Boolean.parseBoolean(string(name, Boolean.toString(fallback)));
        }
    }
}
