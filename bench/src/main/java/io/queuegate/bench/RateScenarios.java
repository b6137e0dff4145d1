package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.queuegate.bench.AlternatingRounds.Endpoint;
import io.queuegate.core.queue.QueueKeys;

/**
 * Figures 1 and 3: Queuegate's enter and status endpoints against three yardsticks driven by the same generator in
 * the same alternating rounds: the plain no-op app (the HTTP stack alone), ingest's own no-op endpoint (the same plus
 * Queuegate's filters) and the seed design (the synchronous Redis waiting room). The yardstick apps must be running
 * ({@link Yardsticks}).
 */
final class RateScenarios {

    private RateScenarios() {
    }

    /** Figure 1: POST enter, answered 202 only once Kafka acknowledged the event. */
    static Map<String, Object> ingest(Bench bench) throws Exception {
        long product = bench.newProduct();
        bench.putQueue(product, 1, 1, 300, true);
        String path = "/api/v1/queues/" + product + "/entries";
        List<Endpoint> endpoints = List.of(
                new Endpoint(RateFigure.PLAIN_NOOP,
                        Load.Target.post("plain no-op POST", Yardsticks.App.PLAIN_NOOP.port, path), List.of()),
                new Endpoint(RateFigure.IN_APP_NOOP,
                        Load.Target.post("in-app no-op POST", Bench.INGEST, "/bench/noop/" + product + "/entries"),
                        List.of()),
                new Endpoint(RateFigure.SEED,
                        Load.Target.postNamed("seed enter POST", Yardsticks.App.SEED_DESIGN.port, path),
                        List.of("zadd")),
                new Endpoint(RateFigure.QUEUEGATE, Load.Target.post("enter POST", Bench.INGEST, path), List.of()));
        try {
            Map<String, Object> out = bench.rounds.run("ingest", endpoints);
            // Durability: every 202 is an event in the log, so once the writer caught up each must be in the line.
            bench.progress.phase("ingest: waiting for the waiting writer to apply every accepted enter", 5);
            long lag = bench.awaitConsumerIdle(Duration.ofMinutes(3));
            long accepted = (long) Report.at(out, "endpoints", RateFigure.QUEUEGATE, "okIncludingWarmup");
            long entered = bench.redis.hgetLong(QueueKeys.of(product).stats(), "enteredTotal");
            Map<String, Object> durability = new LinkedHashMap<>();
            durability.put("accepted202", accepted);
            durability.put("inLine", entered);
            durability.put("lagAfterRun", lag);
            durability.put("holds", entered >= accepted);
            out.put("durability", durability);
            return withRatios(bench, "ingest", out);
        }
        finally {
            bench.redis.unlink(QueueKeys.of(product).all());
            bench.redis.unlink(Yardsticks.seedKeys(product));
        }
    }

    /**
     * Figure 3: GET status on the burst's long line. The seed design polls a copy of the same line, so that both
     * look the same tokens up in a ZSet of the same length.
     */
    static Map<String, Object> status(Bench bench) throws Exception {
        long product = bench.lineProduct;
        List<String> tokens = bench.lineTokens;
        if (product == 0 || tokens.isEmpty()) {
            product = bench.newProduct();
            bench.writeSettings(product, 1, 1_000, 300, false);
            List<String> fresh = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                fresh.add(bench.codec.issue(product, "s" + i).value());
            }
            bench.fillLine(product, fresh);
            tokens = fresh;
        }
        Path file = bench.options.rawDir().resolve("wrk/tokens-" + product + ".txt");
        Files.createDirectories(file.getParent());
        Files.write(file, tokens);
        String base = "/api/v1/queues/" + product + "/entries/";
        List<Endpoint> endpoints = List.of(
                new Endpoint(RateFigure.PLAIN_NOOP,
                        Load.Target.get("plain no-op GET", Yardsticks.App.PLAIN_NOOP.port, base, file, tokens),
                        List.of()),
                new Endpoint(RateFigure.IN_APP_NOOP, Load.Target.get("in-app no-op GET", Bench.INGEST,
                        "/bench/noop/" + product + "/entries/", file, tokens), List.of()),
                new Endpoint(RateFigure.SEED,
                        Load.Target.get("seed status GET", Yardsticks.App.SEED_DESIGN.port, base, file, tokens),
                        List.of("zscore", "zrank")),
                new Endpoint(RateFigure.QUEUEGATE, Load.Target.get("status GET", Bench.INGEST, base, file, tokens),
                        List.of("evalsha")));
        try {
            bench.progress.phase("status: copying the line for the seed design", 1);
            bench.redis.sync.copy(QueueKeys.of(product).waiting(), Yardsticks.seedWaiting(product));
            Map<String, Object> out = bench.rounds.run("status", endpoints);
            out.put("lineLength", bench.redis.sync.zcard(QueueKeys.of(product).waiting()));
            return withRatios(bench, "status", out);
        }
        finally {
            bench.redis.unlink(Yardsticks.seedKeys(product));
            Files.deleteIfExists(file);
        }
    }

    /** Adds the ratios to the scenario's result and prints them: Queuegate as a multiple of each yardstick. */
    private static Map<String, Object> withRatios(Bench bench, String name, Map<String, Object> out) {
        RateFigure figure = RateFigure.of(out);
        out.put("ratios", figure.ratios());
        List<String> parts = new ArrayList<>();
        for (String key : List.of(RateFigure.PLAIN_NOOP, RateFigure.SEED, RateFigure.IN_APP_NOOP)) {
            Double ratio = figure.rateRatio(RateFigure.QUEUEGATE, key);
            parts.add(String.format(Locale.ROOT, "%s × %s (%,d/s)", ratio == null ? "—" : ratio, figure.label(key),
                    Report.num(Report.at(figure.endpoint(key), "perSecond"))));
        }
        bench.progress.note(String.format(Locale.ROOT, "%s: %s %,d/s = %s", name, figure.label(RateFigure.QUEUEGATE),
                Report.num(Report.at(figure.endpoint(RateFigure.QUEUEGATE), "perSecond")), String.join(", ", parts)));
        return out;
    }
}
