package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;

/**
 * Figures 1 and 3: an endpoint against its no-op yardstick on the same HTTP stack, driven by the same generator in the
 * same run. Both are warmed up, then measured in alternating rounds (no-op, endpoint, no-op, endpoint...) so that
 * drift of the machine hits both alike.
 */
final class RateScenarios {

    private RateScenarios() {
    }

    /** Figure 1: POST enter (answers 202 only once Kafka acknowledged) against the no-op POST. */
    static Map<String, Object> ingest(Bench bench) throws Exception {
        long product = bench.newProduct();
        bench.putQueue(product, 1, 1, 300, true);
        Load.Target noop = Load.Target.post("no-op POST", Bench.INGEST, "/bench/noop/" + product + "/entries");
        Load.Target enter = Load.Target.post("enter POST", Bench.INGEST, "/api/v1/queues/" + product + "/entries");
        Map<String, Object> out = compare(bench, "ingest", noop, enter, null);
        // Durability: every 202 is an event in the log, so once the writer caught up each must be in the line.
        bench.progress.phase("ingest: waiting for the waiting writer to apply every accepted enter", 5);
        long lag = bench.awaitConsumerIdle(java.time.Duration.ofMinutes(3));
        long accepted = (long) out.remove("targetOkAllRuns");
        long entered = bench.redis.hgetLong(QueueKeys.of(product).stats(), "enteredTotal");
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("accepted202", accepted);
        durability.put("inLine", entered);
        durability.put("lagAfterRun", lag);
        durability.put("holds", entered >= accepted);
        out.put("durability", durability);
        bench.redis.unlink(QueueKeys.of(product).all());
        return out;
    }

    /** Figure 3: GET status (one Redis script per poll) against the no-op GET, on the burst's long line. */
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
        Load.Target noop = Load.Target.get("no-op GET", Bench.INGEST, "/bench/noop/" + product + "/entries/", file, tokens);
        Load.Target poll = Load.Target.get("status GET", Bench.INGEST, "/api/v1/queues/" + product + "/entries/", file,
                tokens);
        long[] scripts = new long[2];
        Map<String, Object> out = compare(bench, "status", noop, poll, scripts);
        out.put("lineLength", bench.redis.sync.zcard(QueueKeys.of(product).waiting()));
        out.put("redisScriptCallsPerPoll", AdmissionScenario.round3(scripts[0] / (double) Math.max(1, scripts[1])));
        Files.deleteIfExists(file);
        return out;
    }

    /**
     * Warm-up of both, then {@code rounds} alternating measurements. {@code scripts}, when given, receives the Redis
     * EVALSHA calls and the requests of the endpoint's measured rounds.
     */
    private static Map<String, Object> compare(Bench bench, String name, Load.Target yardstick, Load.Target target,
            long[] scripts) throws Exception {
        Options options = bench.options;
        long targetOk = 0;
        String tag = "b" + bench.runId;
        int runs = 0;
        for (Load.Target each : List.of(yardstick, target)) {
            bench.progress.phase(name + ": warm-up of " + each.label(), options.warmup().toSeconds());
            Map<String, Object> warm = bench.load.run(each, options.warmup(), tag + "w" + runs++);
            if (each == target) {
                targetOk += (long) warm.get("ok");
            }
        }
        List<Map<String, Object>> yardRounds = new ArrayList<>();
        List<Map<String, Object>> targetRounds = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            for (Load.Target each : List.of(yardstick, target)) {
                bench.progress.phase(name + ": " + each.label() + ", round " + round + "/" + options.rounds(),
                        options.duration().toSeconds());
                long evalBefore = bench.redis.commandCalls("evalsha");
                String runTag = tag + "r" + runs++;
                Map<String, Object> result = bench.metered(() -> bench.load.run(each, options.duration(), runTag));
                long evalCalls = bench.redis.commandCalls("evalsha") - evalBefore;
                if (each == target) {
                    targetOk += (long) result.get("ok");
                    if (scripts != null) {
                        scripts[0] += evalCalls;
                        scripts[1] += (long) result.get("requests");
                    }
                    targetRounds.add(result);
                }
                else {
                    yardRounds.add(result);
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("driver", bench.load.driverName());
        out.put("yardstick", combine(yardRounds));
        out.put("target", combine(targetRounds));
        long yard = (long) ((Map<?, ?>) out.get("yardstick")).get("perSecond");
        long measured = (long) ((Map<?, ?>) out.get("target")).get("perSecond");
        out.put("ratio", AdmissionScenario.round3(measured / (double) yard));
        out.put("yardstickRounds", yardRounds);
        out.put("targetRounds", targetRounds);
        out.put("targetOkAllRuns", targetOk);
        bench.progress.note(String.format("%s: %s %,d/s vs %s %,d/s = %.2f", name, target.label(), measured,
                yardstick.label(), yard, measured / (double) yard));
        return out;
    }

    /** Rate over all rounds; p50 averaged over rounds, p99 and max the worst round's. */
    private static Map<String, Object> combine(List<Map<String, Object>> rounds) {
        long ok = 0;
        long non2xx = 0;
        long errors = 0;
        double seconds = 0;
        double p50 = 0;
        double p99 = 0;
        double max = 0;
        Map<String, Double> cores = new LinkedHashMap<>();
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        for (Map<String, Object> round : rounds) {
            ok += (long) round.get("ok");
            non2xx += (long) round.get("non2xx");
            errors += (long) round.get("errors");
            seconds += (double) round.get("seconds");
            p50 += (double) round.get("p50Ms") / rounds.size();
            p99 = Math.max(p99, (double) round.get("p99Ms"));
            max = Math.max(max, (double) round.get("maxMs"));
            @SuppressWarnings("unchecked")
            Map<String, Double> used = (Map<String, Double>) ((Map<String, Object>) round.get("cpu")).get("cores");
            double roundSeconds = (double) ((Map<String, Object>) round.get("cpu")).get("seconds");
            used.forEach((process, value) -> {
                cores.merge(process, value / rounds.size(), Double::sum);
                cpuSeconds.merge(process, value * roundSeconds, Double::sum);
            });
        }
        cores.replaceAll((process, value) -> CpuMeter.round(value));
        Map<String, Double> perRequest = new LinkedHashMap<>();
        long served = Math.max(1, ok + non2xx);
        cpuSeconds.forEach((process, value) -> {
            if (!process.equals("idle")) {
                perRequest.put(process, Math.round(value / served * 1e7) / 10.0);
            }
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ok", ok);
        out.put("non2xx", non2xx);
        out.put("errors", errors);
        out.put("seconds", CpuMeter.round(seconds));
        out.put("perSecond", Math.round(ok / seconds));
        out.put("p50Ms", AdmissionScenario.round3(p50));
        out.put("p99Ms", p99);
        out.put("maxMs", max);
        out.put("cores", cores);
        out.put("cpuMicrosPerRequest", perRequest);
        return out;
    }
}
