package io.queuegate.core.testing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.ScriptTimer;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

/**
 * The real Redis that the Redis tests of core, the gate starter and the services run against, without a Spring
 * context: 127.0.0.1:6379, or the Redis Cluster that {@code SPRING_DATA_REDIS_CLUSTER_NODES} names, as the
 * services would use it ({@code scripts/test-on-cluster.sh}). One connection serves every test of a JVM.
 * <p>
 * The server is shared with other runs, so a test works on a product of its own ({@link #unusedProduct}) and
 * deletes only that product's keys.
 */
public final class TestRedis {

    /** A fixed clock for the scripts: 2023-11-14T22:13:20Z. */
    public static final long NOW = 1_700_000_000_000L;

    /** Times script calls as the one-registry default of a service without a meter registry of its own. */
    public static final ScriptTimer TIMER = new ScriptTimer(Metrics.globalRegistry);

    private static StringRedisTemplate template;

    private TestRedis() {
    }

    /** The shared template, connected on first use and closed when the JVM exits. */
    public static synchronized StringRedisTemplate template() {
        if (template == null) {
            String cluster = System.getenv("SPRING_DATA_REDIS_CLUSTER_NODES");
            LettuceConnectionFactory factory = cluster == null || cluster.isBlank()
                    ? new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 6379))
                    : new LettuceConnectionFactory(new RedisClusterConfiguration(List.of(cluster.split(","))));
            factory.afterPropertiesSet();
            factory.start();
            Runtime.getRuntime().addShutdownHook(new Thread(factory::destroy, "test-redis-close"));
            StringRedisTemplate connected = new StringRedisTemplate(factory);
            connected.afterPropertiesSet();
            template = connected;
        }
        return template;
    }

    /** A random product id none of whose keys exist, so another run on the same Redis is never touched. */
    public static long unusedProduct(StringRedisTemplate redis) {
        while (true) {
            long candidate = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
            if (redis.countExistingKeys(QueueKeys.of(candidate).all()) == 0) {
                return candidate;
            }
        }
    }

    /** A sorted set's members in score order, with their scores. */
    public static Map<String, Double> scores(StringRedisTemplate redis, String key) {
        Set<TypedTuple<String>> tuples = redis.opsForZSet().rangeWithScores(key, 0, -1);
        Map<String, Double> scores = new LinkedHashMap<>();
        if (tuples != null) {
            tuples.forEach((tuple) -> scores.put(tuple.getValue(), tuple.getScore()));
        }
        return scores;
    }
}
