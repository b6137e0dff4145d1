package io.queuegate.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drives several endpoints with the same generator: each is warmed up, then all are measured in alternating rounds
 * (A, B, C, A, B, C...) so that drift of the machine hits them alike. Each measured round records where the CPU went;
 * the rounds of an endpoint are combined into its rate, latencies and CPU time per request of every process.
 */
final class AlternatingRounds {

    /**
     * One endpoint under load: its key in the results, what to drive, and the Redis commands it issues (counted from
     * {@code INFO commandstats} over its rounds; empty for endpoints that do not touch Redis).
     */
    record Endpoint(String key, Load.Target target, List<String> redisCommands) {
    }

    private final Options options;

    private final Progress progress;

    private final Load load;

    private final CpuMeter cpu;

    private final Redis redis;

    private final String tag;

    private int runs;

    /** {@code tag} makes the user ids of this run's POSTs unique. */
    AlternatingRounds(Options options, Progress progress, Load load, CpuMeter cpu, Redis redis, String tag) {
        this.options = options;
        this.progress = progress;
        this.load = load;
        this.cpu = cpu;
        this.redis = redis;
        this.tag = tag;
    }

    /**
     * Measures {@code endpoints}: the driver, each endpoint's rounds combined (under {@code endpoints}, by key, with
     * {@code okIncludingWarmup} for durability checks) and every round in the order run (under {@code rounds}).
     */
    Map<String, Object> run(String name, List<Endpoint> endpoints) throws Exception {
        Map<String, Long> okIncludingWarmup = new LinkedHashMap<>();
        for (Endpoint each : endpoints) {
            this.progress.phase(name + ": warm-up of " + each.target().label(), this.options.warmup().toSeconds());
            Map<String, Object> warm = this.load.run(each.target(), this.options.warmup(), nextTag("w"));
            okIncludingWarmup.put(each.key(), (long) warm.get("ok"));
        }
        List<Map<String, Object>> rounds = new ArrayList<>();
        Map<String, List<Map<String, Object>>> byEndpoint = new LinkedHashMap<>();
        Map<String, long[]> redisCalls = new LinkedHashMap<>();
        for (int round = 1; round <= this.options.rounds(); round++) {
            for (Endpoint each : endpoints) {
                this.progress.phase(name + ": " + each.target().label() + ", round " + round + "/"
                        + this.options.rounds(), this.options.duration().toSeconds());
                long callsBefore = commandCalls(each);
                CpuMeter.Snapshot before = this.cpu.snap();
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("key", each.key());
                result.put("round", round);
                result.putAll(this.load.run(each.target(), this.options.duration(), nextTag("r")));
                result.put("cpu", CpuMeter.between(before, this.cpu.snap()));
                long[] calls = redisCalls.computeIfAbsent(each.key(), key -> new long[2]);
                calls[0] += commandCalls(each) - callsBefore;
                calls[1] += (long) result.get("requests");
                okIncludingWarmup.merge(each.key(), (long) result.get("ok"), Long::sum);
                rounds.add(result);
                byEndpoint.computeIfAbsent(each.key(), key -> new ArrayList<>()).add(result);
            }
        }
        Map<String, Object> combined = new LinkedHashMap<>();
        for (Endpoint each : endpoints) {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("label", each.target().label());
            summary.put("port", each.target().port());
            summary.putAll(combine(byEndpoint.get(each.key())));
            if (!each.redisCommands().isEmpty()) {
                long[] calls = redisCalls.get(each.key());
                summary.put("redisCommands", each.redisCommands());
                summary.put("redisCallsPerRequest", Figures.round3(calls[0] / (double) Math.max(1, calls[1])));
            }
            summary.put("okIncludingWarmup", okIncludingWarmup.get(each.key()));
            combined.put(each.key(), summary);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("driver", this.load.driverName());
        out.put("endpoints", combined);
        out.put("rounds", rounds);
        return out;
    }

    private String nextTag(String kind) {
        return this.tag + kind + this.runs++;
    }

    private long commandCalls(Endpoint endpoint) {
        long calls = 0;
        for (String command : endpoint.redisCommands()) {
            calls += this.redis.commandCalls(command);
        }
        return calls;
    }

    /** Rate over all rounds; p50 averaged over rounds, p99 and max the worst round's; CPU per request by process. */
    static Map<String, Object> combine(List<Map<String, Object>> rounds) {
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
            Map<String, Object> cpu = (Map<String, Object>) round.get("cpu");
            @SuppressWarnings("unchecked")
            Map<String, Double> used = (Map<String, Double>) cpu.get("cores");
            double roundSeconds = (double) cpu.get("seconds");
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
        out.put("p50Ms", Figures.round3(p50));
        out.put("p99Ms", p99);
        out.put("maxMs", max);
        out.put("cores", cores);
        out.put("cpuMicrosPerRequest", perRequest);
        return out;
    }
}
