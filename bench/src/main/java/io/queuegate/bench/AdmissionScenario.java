package io.queuegate.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;

/**
 * Figure 4: one admission step promoting a whole batch. The product's line is written as the waiting writer leaves
 * it ({@code waiting}, {@code stats}) but the product is not registered, so the running ticker does
 * not touch it; then the core's own {@link Admission#admit} (that is, {@code admit_batch.lua} with the keys the worker
 * passes) runs once. The yardstick is the least any admission must do on the same line: {@code ZPOPMIN n} and
 * {@code ZADD} into entry, in one script.
 */
final class AdmissionScenario {

    static final String BARE = """
            local head = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
            local args = {}
            for i = 1, #head, 2 do
              args[#args + 1] = ARGV[2]
              args[#args + 1] = head[i]
              if #args >= 2000 then redis.call('ZADD', KEYS[2], unpack(args)); args = {} end
            end
            if #args > 0 then redis.call('ZADD', KEYS[2], unpack(args)) end
            return #head / 2
            """;

    private AdmissionScenario() {
    }

    static AdmissionFigure run(Bench bench) {
        Options options = bench.options;
        int batch = options.admissionBatch();
        long product = bench.newProduct();
        QueueKeys keys = QueueKeys.of(product);
        Redis redis = bench.redis;
        Admission admission = new Admission(bench.template(), new ScriptTimer(Metrics.globalRegistry),
                Keyspace.DEFAULT);
        String bare = redis.loadScript(BARE);
        List<Double> admitMs = new ArrayList<>();
        List<Double> bareMs = new ArrayList<>();
        long admittedLast = 0;
        for (int rep = 0; rep < options.admissionRepeats(); rep++) {
            bench.progress.phase("admission: tick of " + batch + " tokens, repeat " + (rep + 1) + "/"
                    + options.admissionRepeats(), 1);
            redis.unlink(keys.all());
            bench.writeSettings(product, 10_000_000, 1_000_000, 300, true);
            List<String> tokens = new ArrayList<>(batch);
            List<String> users = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                users.add("a" + rep + "-" + i);
                tokens.add(bench.codec.issue(product, users.getLast()).value());
            }
            bench.fillLine(product, tokens);
            long start = System.nanoTime();
            AdmissionResult result = admission.admit(product, ScriptTime.REDIS_TIME, batch);
            admitMs.add((System.nanoTime() - start) / 1e6);
            admittedLast = result.admitted();
            if (admittedLast != batch) {
                throw new IllegalStateException("Admission#admit admitted " + admittedLast + " of " + batch);
            }
            redis.unlink(List.of(keys.waiting(), keys.entry()));
            // the same members the line holds: the users
            redis.zaddAll(keys.waiting(), users, 1, null);
            start = System.nanoTime();
            redis.evalshaLong(bare, List.of(keys.waiting(), keys.entry()), Integer.toString(batch),
                    Long.toString(System.currentTimeMillis() + 300_000));
            bareMs.add((System.nanoTime() - start) / 1e6);
        }
        redis.unlink(keys.all());
        // the first repeat pays for script caching and cold memory; the median of the rest is reported
        double admitMedian = Figures.median(admitMs.subList(admitMs.size() > 1 ? 1 : 0, admitMs.size()));
        double bareMedian = Figures.median(bareMs.subList(bareMs.size() > 1 ? 1 : 0, bareMs.size()));
        AdmissionFigure out = new AdmissionFigure(null, (long) batch, admittedLast, Figures.round3(admitMedian),
                Math.round(batch / (admitMedian / 1000)), Figures.round3(bareMedian),
                Math.round(batch / (bareMedian / 1000)), Figures.round3(bareMedian / admitMedian),
                admitMs.stream().map(Figures::round3).toList(), bareMs.stream().map(Figures::round3).toList());
        bench.progress.note(String.format("admission: %d tokens in %.2f ms (%,d tokens/s); bare ZPOPMIN+ZADD %.2f ms",
                batch, admitMedian, Math.round(batch / (admitMedian / 1000)), bareMedian));
        return out;
    }
}
