package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.token.TokenCodec;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Figure 4 without the stack: one {@link Admission#admit} step promoting a whole line, against the bare
 * {@code ZPOPMIN} + {@code ZADD} script of {@link AdmissionScenario}, alternating, on a product of its own (not
 * registered, deleted afterwards) of the given Redis. Optionally also another version of {@code admit_batch.lua}
 * given as a file (the shared clock put before it, as for every script), run on a line that holds tokens as that
 * version's writer left it.
 *
 * <pre>
 * AdmissionCheck REDIS_PORT BATCH REPEATS [OTHER_ADMIT_BATCH_LUA]
 * </pre>
 */
public final class AdmissionCheck {

    private AdmissionCheck() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int batch = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        String other = args.length > 3 ? Files.readString(Path.of(args[3])) : null;
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1",
                port));
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        long product = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
        QueueKeys keys = QueueKeys.of(product);
        TokenCodec codec = new TokenCodec("admission-check-token-secret-0123");
        Admission admission = new Admission(template, new ScriptTimer(Metrics.globalRegistry), Keyspace.DEFAULT);
        Map<String, List<Double>> ms = new LinkedHashMap<>();
        try (Redis redis = new Redis("127.0.0.1", port)) {
            String bare = redis.loadScript(AdmissionScenario.BARE);
            String otherSha = other == null ? null : redis.loadScript(QueueScripts.withPrelude(other));
            for (int rep = 0; rep < repeats; rep++) {
                List<String> users = new ArrayList<>(batch);
                List<String> tokens = new ArrayList<>(batch);
                for (int i = 0; i < batch; i++) {
                    users.add("a" + rep + "-" + i);
                    tokens.add(codec.issue(product, users.getLast()).value());
                }
                fill(redis, keys, users);
                long start = System.nanoTime();
                AdmissionResult result = admission.admit(product, ScriptTime.REDIS_TIME, batch);
                record(ms, "admit_batch, users", start);
                if (result.admitted() != batch) {
                    throw new IllegalStateException("admitted " + result.admitted() + " of " + batch);
                }
                redis.unlink(keys.all());
                redis.zaddAll(keys.waiting(), users, 1, null);
                start = System.nanoTime();
                redis.evalshaLong(bare, List.of(keys.waiting(), keys.entry()), Integer.toString(batch),
                        Long.toString(System.currentTimeMillis() + 300_000));
                record(ms, "bare ZPOPMIN + ZADD, users", start);
                redis.unlink(keys.all());
                redis.zaddAll(keys.waiting(), tokens, 1, null);
                start = System.nanoTime();
                redis.evalshaLong(bare, List.of(keys.waiting(), keys.entry()), Integer.toString(batch),
                        Long.toString(System.currentTimeMillis() + 300_000));
                record(ms, "bare ZPOPMIN + ZADD, tokens", start);
                if (otherSha != null) {
                    fill(redis, keys, tokens);
                    start = System.nanoTime();
                    redis.sync.evalsha(otherSha, io.lettuce.core.ScriptOutputType.MULTI, new String[] {
                            keys.waiting(), keys.entry(), keys.settings(), keys.stats(), keys.audit() }, "0",
                            Integer.toString(batch));
                    record(ms, "other admit_batch, tokens", start);
                }
                redis.unlink(keys.all());
            }
        }
        finally {
            factory.destroy();
        }
        ms.forEach((name, values) -> {
            List<Double> warm = values.subList(1, values.size());
            System.out.printf("%-32s median %6.2f ms  min %6.2f ms  (%d repeats after the first)%n", name,
                    Figures.median(warm), warm.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                    warm.size());
        });
    }

    private static void fill(Redis redis, QueueKeys keys, List<String> members) {
        redis.unlink(keys.all());
        redis.sync.hset(keys.settings(), Map.of("maxActive", "10000000", "admitPerSecond", "1000000",
                "entryTtlSeconds", "300", "open", "true"));
        redis.zaddAll(keys.waiting(), members, 1, null);
        redis.sync.hset(keys.stats(), Map.of("seq", Integer.toString(members.size()), "enteredTotal",
                Integer.toString(members.size())));
    }

    private static void record(Map<String, List<Double>> ms, String name, long start) {
        ms.computeIfAbsent(name, key -> new ArrayList<>()).add((System.nanoTime() - start) / 1e6);
    }
}
