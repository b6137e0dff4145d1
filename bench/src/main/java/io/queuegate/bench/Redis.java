package io.queuegate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/** The benchmark's own Redis access (Lettuce, one connection): preparing products, measuring, cleaning up. */
final class Redis implements AutoCloseable {

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    final RedisCommands<String, String> sync;

    final RedisAsyncCommands<String, String> async;

    Redis(String host, int port) {
        this.client = RedisClient.create(RedisURI.builder().withHost(host).withPort(port)
            .withTimeout(Duration.ofSeconds(60)).build());
        this.connection = this.client.connect();
        this.sync = this.connection.sync();
        this.async = this.connection.async();
    }

    String loadScript(String source) {
        return this.sync.scriptLoad(source);
    }

    static String resource(String path) {
        try (InputStream in = Redis.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    long evalshaLong(String sha, List<String> keys, String... args) {
        Long value = this.sync.evalsha(sha, ScriptOutputType.INTEGER, keys.toArray(String[]::new), args);
        return value == null ? 0 : value;
    }

    /** {@code INFO <section>} as a map of its {@code name:value} lines. */
    Map<String, String> info(String section) {
        Map<String, String> values = new HashMap<>();
        for (String line : this.sync.info(section).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                values.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return values;
    }

    /** Calls of one command since start-up, from {@code INFO commandstats}. */
    long commandCalls(String command) {
        String stats = info("commandstats").get("cmdstat_" + command);
        if (stats == null) {
            return 0;
        }
        for (String part : stats.split(",")) {
            if (part.startsWith("calls=")) {
                return Long.parseLong(part.substring(6));
            }
        }
        return 0;
    }

    /** {@code MEMORY USAGE key SAMPLES 0}: every element counted, not an estimate from five. */
    long memoryUsage(String key) {
        Long bytes = this.sync.dispatch(CommandType.MEMORY, new IntegerOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
        return bytes == null ? 0 : bytes;
    }

    long hgetLong(String key, String field) {
        String value = this.sync.hget(key, field);
        return value == null ? 0 : Long.parseLong(value);
    }

    /** ZADD in pipelined chunks; scores are {@code firstScore, firstScore + 1, ...} unless {@code fixedScore} is set. */
    void zaddAll(String key, List<String> members, double firstScore, Double fixedScore) {
        List<RedisFuture<?>> pending = new ArrayList<>();
        for (int from = 0; from < members.size(); from += 1_000) {
            int to = Math.min(members.size(), from + 1_000);
            List<ScoredValue<String>> chunk = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) {
                chunk.add(ScoredValue.just(fixedScore != null ? fixedScore : firstScore + i, members.get(i)));
            }
            @SuppressWarnings("unchecked")
            ScoredValue<String>[] values = chunk.toArray(ScoredValue[]::new);
            pending.add(this.async.zadd(key, values));
            if (pending.size() >= 64) {
                LettuceFutures.awaitAll(60, TimeUnit.SECONDS, pending.toArray(RedisFuture[]::new));
                pending.clear();
            }
        }
        LettuceFutures.awaitAll(60, TimeUnit.SECONDS, pending.toArray(RedisFuture[]::new));
    }

    void unlink(List<String> keys) {
        if (!keys.isEmpty()) {
            this.sync.unlink(keys.toArray(String[]::new));
        }
    }

    @Override
    public void close() {
        this.connection.close();
        this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
