package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import io.queuegate.bench.AlternatingRounds.Endpoint;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./bench.sh --only=yardsticks}: starts the two yardstick apps without the stack (Redis only), drives the
 * enter and status paths of each as the rate figures do, prints the rates and CPU per request, and stops them. It
 * proves that the apps start, answer and stop, and shows what this machine gives a plain Spring Boot app, without
 * the ports of the services. Writes {@code bench/results/tmp/yardsticks.json}.
 */
final class YardstickCheck {

    private static final int LINE_LENGTH = 10_000;

    /**
     * The product the check's seed keys belong to, always the same: a check that was killed before it deleted them
     * leaves one line behind, and the next check deletes it before it starts.
     */
    private static final long CHECK_PRODUCT = 0;

    private YardstickCheck() {
    }

    static void run(Options options, Progress progress, boolean wrk) throws Exception {
        try (Redis redis = new Redis(options.host(), options.redisPort())) {
            Map<String, Long> pids = new LinkedHashMap<>();
            long redisPid = Long.parseLong(redis.info("server").getOrDefault("process_id", "-1"));
            if (redisPid > 0) {
                pids.put("redis", redisPid);
            }
            pids.put("bench", ProcessHandle.current().pid());
            CpuMeter cpu = new CpuMeter(pids);
            Load load = new Load(options.host(), wrk, options.wrkThreads(), options.connections(),
                    options.rawDir().resolve("wrk"));
            String tag = "y" + Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
            AlternatingRounds rounds = new AlternatingRounds(options, progress, load, cpu, redis, tag);
            long product = CHECK_PRODUCT;
            redis.unlink(Yardsticks.seedKeys(product));
            List<String> tokens = new ArrayList<>(LINE_LENGTH);
            for (int i = 0; i < LINE_LENGTH; i++) {
                tokens.add(UUID.randomUUID().toString());
            }
            Path file = options.rawDir().resolve("wrk/tokens-yardsticks-" + product + ".txt");
            Map<String, Object> results = new LinkedHashMap<>();
            List<String> launcher = new ArrayList<>();
            launcher.add(ProcessHandle.current().info().command().orElse("java"));
            Arrays.stream(options.serviceJvmOptions().trim().split("\\s+")).filter(o -> !o.isEmpty())
                .forEach(launcher::add);
            try {
                redis.zaddAll(Yardsticks.seedWaiting(product), tokens, 1, null);
                Files.createDirectories(file.getParent());
                Files.write(file, tokens);
                try (Yardsticks apps = Yardsticks.start(options.root(), launcher, options.host(), progress)) {
                    apps.pids().forEach(cpu::watch);
                    results.put("apps", apps.describe());
                    results.put("enter", check(rounds, progress, "yardsticks POST", List.of(
                            new Endpoint(RateFigure.PLAIN_NOOP, Load.Target.post("plain no-op POST",
                                    Yardsticks.App.PLAIN_NOOP.port, "/api/v1/queues/" + product + "/entries"), List.of()),
                            new Endpoint(RateFigure.SEED, Load.Target.postNamed("seed enter POST",
                                    Yardsticks.App.SEED_DESIGN.port, "/api/v1/queues/" + product + "/entries"),
                                    List.of("zadd")))));
                    String base = "/api/v1/queues/" + product + "/entries/";
                    results.put("status", check(rounds, progress, "yardsticks GET", List.of(
                            new Endpoint(RateFigure.PLAIN_NOOP, Load.Target.get("plain no-op GET",
                                    Yardsticks.App.PLAIN_NOOP.port, base, file, tokens), List.of()),
                            new Endpoint(RateFigure.SEED, Load.Target.get("seed status GET",
                                    Yardsticks.App.SEED_DESIGN.port, base, file, tokens), List.of("zscore", "zrank")))));
                }
            }
            finally {
                redis.unlink(Yardsticks.seedKeys(product));
                Files.deleteIfExists(file);
            }
            results.put("driver", load.driverName());
            Path out = options.resultsDir().resolve("tmp/" + options.label() + ".json");
            Files.createDirectories(out.getParent());
            Files.writeString(out, JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
                .writeValueAsString(results));
            System.err.println("[bench] yardstick check: " + options.root().relativize(out.toAbsolutePath()));
        }
    }

    /** The endpoints in alternating rounds; prints each one's rate, p99 and its app's CPU per request. */
    private static Map<String, Object> check(AlternatingRounds rounds, Progress progress, String name,
            List<Endpoint> endpoints) throws Exception {
        Map<String, Object> out = rounds.run(name, endpoints);
        RateFigure figure = RateFigure.of(out);
        out.put("ratios", figure.ratios());
        for (Endpoint each : endpoints) {
            Map<?, ?> summary = figure.endpoint(each.key());
            String process = each.key().equals(RateFigure.SEED) ? Yardsticks.App.SEED_DESIGN.process
                    : Yardsticks.App.PLAIN_NOOP.process;
            progress.note(String.format(Locale.ROOT, "%s: %,d/s, p99 %s ms, %s non-2xx, %s errors; %s %s µs and "
                    + "redis %s µs of CPU per request%s", each.target().label(), Report.num(summary.get("perSecond")),
                    Report.ms(summary.get("p99Ms")), summary.get("non2xx"), summary.get("errors"), process,
                    figure.cpuMicros(each.key(), process), figure.cpuMicros(each.key(), "redis"),
                    summary.get("redisCallsPerRequest") == null ? ""
                            : ", Redis calls per request " + summary.get("redisCallsPerRequest")));
        }
        progress.note(String.format(Locale.ROOT, "%s: seed ÷ plain no-op = %s", name,
                figure.rateRatio(RateFigure.SEED, RateFigure.PLAIN_NOOP)));
        return out;
    }
}
