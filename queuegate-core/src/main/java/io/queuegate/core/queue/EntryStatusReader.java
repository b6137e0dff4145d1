package io.queuegate.core.queue;

import java.util.List;

import io.queuegate.core.token.EntryToken;

import io.micrometer.core.instrument.Metrics;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Reads a token's status in one Redis round trip; see {@code read_status.lua}. */
public class EntryStatusReader {

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    public EntryStatusReader(StringRedisTemplate redis) {
        this(redis, new ScriptTimer(Metrics.globalRegistry));
    }

    public EntryStatusReader(StringRedisTemplate redis, ScriptTimer timer) {
        this.redis = redis;
        this.timer = timer;
    }

    /** @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME} */
    public EntryState read(EntryToken token, long nowMillis) {
        QueueKeys keys = QueueKeys.of(token.productId());
        List<?> reply = this.timer.time("read_status", () -> this.redis.execute(QueueScripts.READ_STATUS,
                List.of(keys.entry(), keys.waiting(), keys.gone(), keys.settings()),
                token.userId(), Long.toString(nowMillis)));
        if (reply == null || reply.size() < 4) {
            throw new IllegalStateException("read_status.lua answered " + reply);
        }
        return new EntryState(EntryStatus.valueOf(reply.get(0).toString()), Admission.number(reply.get(1)),
                Admission.number(reply.get(2)), (int) Admission.number(reply.get(3)));
    }
}
