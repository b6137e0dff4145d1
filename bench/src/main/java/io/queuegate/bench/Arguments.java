package io.queuegate.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * The load generator's command line, {@code --name=value} with {@code BENCH_NAME} environment fallbacks. An option
 * left out is null here and gets its default in {@link #options}, where {@code --quick} scales it down. Integers may
 * be written with underscores ({@code --drain-events=1_000_000}).
 */
@Command(name = "bench", sortOptions = false, usageHelpAutoWidth = true,
        description = "The burst benchmark's load generator; ./bench.sh starts it. Every option can also be given "
                + "as an environment variable BENCH_<NAME> (e.g. BENCH_E2E_USERS=50000).")
final class Arguments {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
    boolean help;

    @Option(names = "--quick", arity = "0..1", paramLabel = "true|false",
            description = "a smoke run of about two minutes instead of ten")
    Boolean quick;

    @Option(names = "--only", paramLabel = "NAMES", description = "some scenarios, comma-separated: "
            + "admission, drain, status, ingest, booking, e2e, streams; or yardsticks alone (default: all but yardsticks)")
    String only;

    @Option(names = "--driver", paramLabel = "auto|wrk|java", description = "the rate figures' load generator "
            + "(default auto: wrk when installed)")
    String driver;

    @Option(names = "--warmup", paramLabel = "S", description = "warm-up seconds per endpoint (default 20, quick 2)")
    Integer warmup;

    @Option(names = "--duration", paramLabel = "S", description = "seconds per measured round (default 15, quick 4)")
    Integer duration;

    @Option(names = "--rounds", paramLabel = "N", description = "measured rounds per endpoint (default 2, quick 1)")
    Integer rounds;

    @Option(names = "--connections", paramLabel = "N", description = "HTTP connections (default 64)")
    Integer connections;

    @Option(names = "--wrk-threads", paramLabel = "N", description = "wrk threads (default 2)")
    Integer wrkThreads;

    @Option(names = "--drain-events", paramLabel = "N",
            description = "events of the drain burst (default 1,000,000, quick 100,000)")
    Integer drainEvents;

    @Option(names = "--admission-batch", paramLabel = "N", description = "tokens per admission step (default 10,000)")
    Integer admissionBatch;

    @Option(names = "--admission-repeats", paramLabel = "N",
            description = "admission steps measured (default 7, quick 3)")
    Integer admissionRepeats;

    @Option(names = "--booking-stock", paramLabel = "N",
            description = "units the booking figure sells (default 100,000, quick 5,000)")
    Integer bookingStock;

    @Option(names = "--streams", paramLabel = "N", description = "event streams to hold open at ingest (default "
            + "50,000, quick 2,000; at most what the open-file limit allows)")
    Integer streams;

    @Option(names = "--streams-admit-per-second", paramLabel = "N",
            description = "the streamed line's pace once it moves (default 200)")
    Integer streamsAdmitPerSecond;

    @Option(names = "--streams-admit-seconds", paramLabel = "S",
            description = "how long the streamed line moves (default 15, quick 5)")
    Integer streamsAdmitSeconds;

    @Option(names = "--e2e-users", paramLabel = "N",
            description = "users of the end-to-end sale (default 100,000, quick 20,000)")
    Integer e2eUsers;

    @Option(names = "--e2e-window", paramLabel = "S",
            description = "seconds over which they enter (default 10, quick 5)")
    Integer e2eWindow;

    @Option(names = "--e2e-admit-per-second", paramLabel = "N",
            description = "the sale's admission rate (default 2,000, quick 1,000)")
    Integer e2eAdmitPerSecond;

    @Option(names = "--e2e-stock", paramLabel = "N", description = "units on sale (default 20,000, quick 3,000)")
    Integer e2eStock;

    @Option(names = "--e2e-max-active", paramLabel = "N", description = "admitted users at once (default 10,000)")
    Integer e2eMaxActive;

    @Option(names = "--e2e-timeout", paramLabel = "S",
            description = "seconds the sale may take after the window (default 120, quick 60)")
    Integer e2eTimeout;

    @Option(names = "--host", paramLabel = "HOST", description = "where the stack answers (default 127.0.0.1)")
    String host;

    @Option(names = "--report", paramLabel = "FILE", description = "the report a full run rewrites "
            + "(default docs/BENCHMARKS.md)")
    String report;

    @Option(names = "--label", paramLabel = "NAME", description = "names the run's files under bench/results/tmp/ "
            + "(default full, quick or yardsticks)")
    String label;

    @Option(names = "--command", paramLabel = "TEXT",
            description = "the command line the report shows (bench.sh passes its own)")
    String command;

    @Option(names = "--write-report", arity = "0..1", paramLabel = "true|false",
            description = "rewrite the report (default: for a full run of every scenario, and with --from-json)")
    Boolean writeReport;

    @Option(names = "--renice", paramLabel = "N", description = "the nice level bench.sh ran the stack at, for the "
            + "report")
    String renice;

    @Option(names = "--from-json", paramLabel = "FILE",
            description = "measure nothing: rewrite the chart and the report from a saved run's JSON")
    String fromJson;

    @Option(names = "--cold-start", paramLabel = "FILE",
            description = "measure nothing: chart and tabulate the runs bench/cold-start.sh wrote to FILE (JSON)")
    String coldStart;

    // bench.sh passes the options run.sh starts the services with (scripts/lib.sh); the yardstick apps take them
    // when no service runs to copy them from
    @Option(names = "--service-jvm-options", paramLabel = "OPTIONS",
            description = "JVM options of the yardstick apps when no service runs to copy them from")
    String serviceJvmOptions;

    // the Redis the stack uses: run.sh's REDIS_PORT, so a benchmark can leave the shared Redis alone
    @Option(names = "--redis-port", paramLabel = "PORT", description = "the stack's Redis (default $REDIS_PORT, "
            + "else 6379)")
    Integer redisPort;

    /** This command line, reading {@code BENCH_NAME} variables for options not given; the last of a repeated one wins. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Arguments());
        cli.registerConverter(Integer.class, value -> Integer.valueOf(value.replace("_", "")));
        cli.setDefaultValueProvider(Arguments::fromEnvironment);
        cli.setOverwrittenOptionsAllowed(true);
        return cli;
    }

    private static String fromEnvironment(ArgSpec spec) {
        if (!(spec instanceof OptionSpec option) || option.usageHelp()) {
            return null;
        }
        String value = System.getenv("BENCH_" + option.longestName().substring(2).toUpperCase(Locale.ROOT)
            .replace('-', '_'));
        return value == null || value.isBlank() ? null : value;
    }

    /** The run these arguments ask for, with every default filled in. */
    Options options(ParseResult parsed, Path root) {
        boolean quick = Boolean.TRUE.equals(this.quick);
        Set<String> scenarios = new LinkedHashSet<>();
        for (String name : text(this.only, String.join(",", Options.ALL)).split(",")) {
            String trimmed = name.trim();
            if (!trimmed.isEmpty()) {
                if (!Options.ALL.contains(trimmed) && !trimmed.equals(Options.YARDSTICKS)) {
                    throw new CommandLine.ParameterException(parsed.commandSpec().commandLine(), "unknown scenario "
                            + trimmed + "; known: " + Options.ALL + " or " + Options.YARDSTICKS + " alone");
                }
                scenarios.add(trimmed);
            }
        }
        if (scenarios.contains(Options.YARDSTICKS) && scenarios.size() > 1) {
            throw new CommandLine.ParameterException(parsed.commandSpec().commandLine(),
                    "--only=" + Options.YARDSTICKS + " runs alone: it needs no stack");
        }
        String label = text(this.label, quick ? "quick" : scenarios.contains(Options.YARDSTICKS) ? Options.YARDSTICKS
                : "full");
        boolean defaultReport = !quick && scenarios.size() == Options.ALL.size() && label.equals("full")
                || parsed.hasMatchedOption("--from-json");
        return new Options(quick, scenarios, text(this.driver, "auto"),
                Duration.ofSeconds(or(this.warmup, quick ? 2 : 20)),
                Duration.ofSeconds(or(this.duration, quick ? 4 : 15)),
                or(this.rounds, quick ? 1 : 2),
                or(this.connections, 64),
                or(this.wrkThreads, 2),
                or(this.drainEvents, quick ? 100_000 : 1_000_000),
                or(this.admissionBatch, 10_000),
                or(this.admissionRepeats, quick ? 3 : 7),
                or(this.bookingStock, quick ? 5_000 : 100_000),
                or(this.e2eUsers, quick ? 20_000 : 100_000),
                Duration.ofSeconds(or(this.e2eWindow, quick ? 5 : 10)),
                or(this.e2eAdmitPerSecond, quick ? 1_000 : 2_000),
                or(this.e2eStock, quick ? 3_000 : 20_000),
                or(this.e2eMaxActive, 10_000),
                Duration.ofSeconds(or(this.e2eTimeout, quick ? 60 : 120)),
                or(this.streams, quick ? 2_000 : 50_000),
                or(this.streamsAdmitPerSecond, 200),
                or(this.streamsAdmitSeconds, quick ? 5 : 15),
                text(this.host, "127.0.0.1"), root, root.resolve("bench/results"),
                Path.of(text(this.report, root.resolve("docs/BENCHMARKS.md").toString())),
                label, text(this.command, "./bench.sh" + (quick ? " --quick" : "")),
                this.writeReport == null ? defaultReport : this.writeReport, text(this.renice, ""),
                text(this.fromJson, ""), text(this.coldStart, ""), text(this.serviceJvmOptions, ""),
                or(this.redisPort, Integer.parseInt(System.getenv().getOrDefault("REDIS_PORT", "6379"))));
    }

    /** A value given blank counts as not given, as an environment variable does. */
    private static String text(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    private static int or(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
