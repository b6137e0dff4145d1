package io.queuegate.core.queue;

import java.util.List;

import io.queuegate.core.token.EntryToken;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Takes a token out of the line or frees its entry slot; see {@code remove_entry.lua}. */
public class EntryRemover {

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    public EntryRemover(StringRedisTemplate redis, ScriptTimer timer) {
        this(redis, timer, Keyspace.DEFAULT);
    }

    public EntryRemover(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /** @return whether the token's user held a place */
    public boolean remove(EntryToken token) {
        QueueKeys keys = this.keyspace.product(token.productId());
        Long removed = this.timer.time("remove_entry", () -> this.redis.execute(QueueScripts.REMOVE_ENTRY,
                List.of(keys.waiting(), keys.entry(), keys.gone(), keys.stats(), keys.audit()), token.userId(),
                Long.toString(ScriptTime.REDIS_TIME)));
        return removed != null && removed > 0;
    }
}
