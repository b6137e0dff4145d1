package io.queuegate.core.queue;

import java.util.List;

import io.micrometer.core.instrument.Metrics;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Appends applied enter events to a product's line, in log order and idempotently. */
public class WaitingLine {

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    public WaitingLine(StringRedisTemplate redis) {
        this(redis, new ScriptTimer(Metrics.globalRegistry));
    }

    public WaitingLine(StringRedisTemplate redis, ScriptTimer timer) {
        this.redis = redis;
        this.timer = timer;
    }

    /**
     * Appends the tokens in the given order, skipping any the line already knows.
     * @return how many were new
     */
    public long append(long productId, List<String> tokens) {
        if (tokens.isEmpty()) {
            return 0;
        }
        QueueKeys keys = QueueKeys.of(productId);
        Object[] args = new Object[tokens.size() + 1];
        args[0] = Long.toString(ScriptTime.REDIS_TIME);
        for (int i = 0; i < tokens.size(); i++) {
            args[i + 1] = tokens.get(i);
        }
        Long added = this.timer.time("append_waiting", () -> this.redis.execute(QueueScripts.APPEND_WAITING,
                List.of(keys.waiting(), keys.members(), keys.stats(), keys.audit()), args));
        return added == null ? 0 : added;
    }
}
