package io.queuegate.core.testing;

import java.util.List;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Changes on a product's audit stream that no relay has published yet, written straight to the stream as the line's
 * other steps would have written them: how the script tests of core and the gate reach the audit bound.
 */
public final class UnrelayedChanges {

    /** One script call, so that a hundred thousand changes take one round trip. */
    private static final RedisScript<Long> ADD = RedisScript.of("""
            for i = 1, tonumber(ARGV[1]) do
              redis.call('XADD', KEYS[1], '*', 'type', 'LEFT', 'at', 0, 'users', 'someone-' .. i)
            end
            return 0""", Long.class);

    private UnrelayedChanges() {
    }

    /** Appends {@code count} changes to the audit stream {@code audit}. */
    public static void add(StringRedisTemplate redis, String audit, int count) {
        redis.execute(ADD, List.of(audit), Integer.toString(count));
    }

    /** The id of the oldest change the stream {@code audit} still holds. */
    public static String firstId(StringRedisTemplate redis, String audit) {
        return redis.opsForStream()
            .range(audit, Range.unbounded(), Limit.limit().count(1))
            .getFirst()
            .getId()
            .getValue();
    }
}
