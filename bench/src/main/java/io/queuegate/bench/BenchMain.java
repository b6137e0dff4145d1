package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.queuegate.core.queue.QueueKeys;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the burst benchmark against the stack on this machine and writes the raw JSON, the PNG chart and the
 * report. Started by {@code ./bench.sh}, which builds, starts or reuses the stack, and passes its options through.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath().normalize();
        CommandLine cli = Arguments.commandLine();
        Options options;
        try {
            ParseResult parsed = cli.parseArgs(args);
            if (cli.isUsageHelpRequested()) {
                cli.usage(System.out);
                return;
            }
            options = cli.<Arguments>getCommand().options(parsed, root);
        }
        catch (ParameterException ex) {
            System.err.println("[bench] " + ex.getMessage() + " (./bench.sh --help lists the options)");
            System.exit(CommandLine.ExitCode.USAGE);
            return;
        }
        if (!options.coldStart().isEmpty()) {
            System.out.print(ColdStartReport.write(Path.of(options.coldStart())));
            return;
        }
        if (!options.fromJson().isEmpty()) {
            // rewrites the chart and the report from a run's JSON, for changes to the report itself
            Path json = Path.of(options.fromJson());
            BenchRun saved = BenchRun.JSON.readValue(json.toFile(), BenchRun.class);
            Path png = json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", ".png"));
            Chart.write(saved, png);
            Path report = options.writeReport() ? options.reportFile() : json.resolveSibling(
                    json.getFileName().toString().replaceFirst("\\.json$", ".md"));
            Report.write(saved, report, root, json.toAbsolutePath(), png.toAbsolutePath());
            System.err.println("[bench] rewrote " + root.relativize(png.toAbsolutePath()) + " and "
                    + root.relativize(report.toAbsolutePath()));
            return;
        }
        String wrkVersion = Machine.commandLine(List.of("wrk", "--version"));
        boolean wrk = switch (options.driver()) {
            case "wrk" -> {
                if (wrkVersion == null) {
                    throw new IllegalStateException("--driver=wrk but wrk is not installed (apt-get install -y wrk)");
                }
                yield true;
            }
            case "java" -> false;
            default -> wrkVersion != null && wrkVersion.startsWith("wrk");
        };
        if (options.onlyYardsticks()) {
            try (Progress progress = new Progress(plannedSeconds(options))) {
                YardstickCheck.run(options, progress, wrk);
            }
            return;
        }
        Map<String, Object> results;
        try (Progress progress = new Progress(plannedSeconds(options)); Bench bench = new Bench(options, progress, wrk)) {
            results = bench.results();
            long started = System.currentTimeMillis();
            results.put("startedAt", Instant.ofEpochMilli(started).toString());
            results.put("command", options.command());
            results.put("options", options.describe());
            results.put("machine", Machine.describe(root, bench.redis.info("server"), wrk ? wrkVersion : null));
            results.put("rateDriver", bench.load.driverName());
            Map<String, Object> git = new LinkedHashMap<>();
            git.put("commit", Machine.commandLine(List.of("git", "-C", root.toString(), "rev-parse", "--short", "HEAD")));
            String dirty = Machine.commandOutput(List.of("git", "-C", root.toString(), "status", "--porcelain",
                    "--untracked-files=no"));
            git.put("modifiedFiles", dirty == null || dirty.isBlank() ? 0 : dirty.strip().lines().count());
            results.put("git", git);
            results.put("services", bench.stack.services);
            bench.cleanupStale();
            progress.phase("checking that the benchmark's tokens match the services' secret", 1);
            bench.verifyTokenSecret();
            progress.phase("measuring the machine's background load with the stack idle", 3);
            CpuMeter.Snapshot idleFrom = bench.cpu.snap();
            Thread.sleep(3_000);
            results.put("background", CpuMeter.between(idleFrom, bench.cpu.snap()));
            try {
                scenario(bench, "admission", () -> AdmissionScenario.run(bench));
                if (options.runs("drain") || options.runs("status")) {
                    Map<String, Object> zadd = options.runs("drain") ? DrainScenario.redisBenchmark(bench) : Map.of();
                    results.put("redisBenchmarkZadd", zadd);
                    scenario(bench, "drain", () -> DrainScenario.run(bench, zadd));
                }
                if (options.runs("status") || options.runs("ingest")) {
                    rateScenarios(bench);
                }
                if (bench.lineProduct != 0) {
                    bench.redis.unlink(QueueKeys.of(bench.lineProduct).all());
                }
                scenario(bench, "booking", () -> BookingScenario.run(bench));
                scenario(bench, "e2e", () -> EndToEndScenario.run(bench));
                scenario(bench, "streams", () -> bench.metered(() -> StreamsScenario.run(bench)));
            }
            finally {
                progress.phase("cleaning up the benchmark's products", 1);
                bench.awaitConsumerIdle(java.time.Duration.ofMinutes(2));
                bench.cleanup();
            }
            results.put("seconds", (System.currentTimeMillis() - started) / 1000);
            write(options, results, started);
        }
    }

    /**
     * Figures 3 and 1 with the yardstick apps up only for them: started before, stopped after, also when a scenario
     * fails. Apps that do not start fail both figures; the other scenarios still run.
     */
    private static void rateScenarios(Bench bench) {
        Yardsticks apps;
        try {
            apps = bench.startYardsticks();
        }
        catch (Exception ex) {
            bench.progress.note("the yardstick apps did not start: " + ex.getMessage());
            for (String name : List.of("status", "ingest")) {
                if (bench.options.runs(name)) {
                    bench.results().put(name, Map.of("error", "the yardstick apps did not start: " + ex));
                }
            }
            return;
        }
        try {
            scenario(bench, "status", () -> RateScenarios.status(bench));
            if (bench.lineProduct != 0) {
                bench.redis.unlink(QueueKeys.of(bench.lineProduct).all());
            }
            scenario(bench, "ingest", () -> RateScenarios.ingest(bench));
        }
        finally {
            bench.progress.phase("stopping the yardstick apps", 2);
            bench.stopYardsticks(apps);
        }
    }

    private static void scenario(Bench bench, String name, Callable<?> body) {
        if (!bench.options.runs(name)) {
            return;
        }
        try {
            bench.results().put(name, body.call());
        }
        catch (Exception ex) {
            bench.progress.note(name + " failed: " + ex);
            Map<String, Object> failure = new LinkedHashMap<>();
            failure.put("error", ex.toString());
            bench.results().put(name, failure);
        }
    }

    private static void write(Options options, Map<String, Object> results, long started) throws Exception {
        JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
            .format(Instant.ofEpochMilli(started));
        Path out = options.outputDir();
        Files.createDirectories(out);
        Files.createDirectories(options.rawDir());
        String name = options.writeReport() ? "benchmarks" : options.label();
        Path jsonFile = out.resolve(name + ".json");
        Path pngFile = out.resolve(name + ".png");
        String text = json.writeValueAsString(results);
        Files.writeString(jsonFile, text);
        Files.writeString(options.rawDir().resolve(stamp + "-" + options.label() + ".json"), text);
        BenchRun run = BenchRun.of(results);
        Chart.write(run, pngFile);
        Path report = options.writeReport() ? options.reportFile() : out.resolve(name + ".md");
        Report.write(run, report, options.root(), jsonFile, pngFile);
        System.err.println("[bench] raw results: " + options.root().relativize(jsonFile));
        System.err.println("[bench] chart:       " + options.root().relativize(pngFile));
        System.err.println("[bench] report:      " + options.root().relativize(report.toAbsolutePath()));
    }

    /** The progress bar's plan: the same estimates the scenarios give their phases. */
    static double plannedSeconds(Options o) {
        double warm = o.warmup().toSeconds();
        // four endpoints per rate figure: the plain no-op, the in-app no-op, the seed design and Queuegate's
        double rate = 4 * warm + 4.0 * o.rounds() * o.duration().toSeconds();
        double total = 5;
        if (o.onlyYardsticks()) {
            return total + 15 + 2 * (2 * warm + 2.0 * o.rounds() * o.duration().toSeconds());
        }
        if (o.runs("status") || o.runs("ingest")) {
            total += 15;
        }
        if (o.runs("admission")) {
            total += o.admissionRepeats();
        }
        if (o.runs("drain")) {
            // yardstick, build, produce and drain, memory; then the backlog's build, produce and drain
            total += o.drainEvents() * (1 / 120_000.0 + 2 / 250_000.0 + 3 / 200_000.0 + 2 / 200_000.0) + 3;
        }
        if (o.runs("status")) {
            total += rate;
        }
        if (o.runs("ingest")) {
            total += rate + 5;
        }
        if (o.runs("booking")) {
            double warmTokens = Math.min(300_000, 12_000 * Math.max(1, warm));
            total += warmTokens / 100_000.0 + warm + o.duration().toSeconds() + o.bookingStock() * 1.2 / 100_000.0
                    + o.bookingStock() / 10_000.0;
        }
        if (o.runs("e2e")) {
            total += o.e2eWindow().toSeconds() + o.e2eStock() / (double) o.e2eAdmitPerSecond() + 3;
        }
        return total;
    }
}
