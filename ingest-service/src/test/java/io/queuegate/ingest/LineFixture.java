package io.queuegate.ingest;

import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.TokenCodec;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A product of its own for a test, and users put into its line as the writer does, as if their enters were records
 * 0, 1, 2... of one partition.
 */
public final class LineFixture {

    private LineFixture() {
    }

    /** A product id no key of this Redis uses yet. */
    public static long freeProduct(StringRedisTemplate redis) {
        return TestRedis.unusedProduct(redis);
    }

    /**
     * Writes an open queue's settings without registering it, so that no admission worker anywhere moves its line;
     * in identity "trusted", so that a test names its users (with the enter key) and knows whom the line holds.
     */
    public static void openUnregistered(StringRedisTemplate redis, long product, int maxActive, int admitPerSecond) {
        openUnregistered(redis, product, maxActive, admitPerSecond, Identity.TRUSTED);
    }

    /** The same, in this identity. */
    public static void openUnregistered(StringRedisTemplate redis, long product, int maxActive, int admitPerSecond,
            Identity identity) {
        redis.opsForHash().putAll(QueueKeys.of(product).settings(), Map.of("maxActive", Integer.toString(maxActive),
                "admitPerSecond", Integer.toString(admitPerSecond), "entryTtlSeconds", "60", "open", "true",
                "identity", identity.value()));
    }

    public static void append(StringRedisTemplate redis, long productId, List<String> userIds) {
        long[] offsets = new long[userIds.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = i;
        }
        new WaitingLine(redis, TestRedis.TIMER, Keyspace.DEFAULT)
            .append(new LineChunk(productId, "fixture:0", LineChunk.UNKNOWN, offsets, userIds));
    }

    /** The users of tokens this codec issued. */
    public static List<String> usersOf(TokenCodec codec, List<String> tokens) {
        return tokens.stream().map((token) -> codec.verify(token).orElseThrow().userId()).toList();
    }
}
