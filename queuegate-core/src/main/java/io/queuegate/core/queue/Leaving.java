package io.queuegate.core.queue;

import java.util.List;

import io.queuegate.core.token.Token;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Takes a token out of the line or frees its entry slot; see {@code leave_place.lua}. */
public class Leaving {

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    public Leaving(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /**
     * Whether the token's user is gone from this line already (left, was revoked, or had their turn end): a leave
     * then changes nothing and need not be stored again.
     */
    public boolean isGone(Token token) {
        return Boolean.TRUE.equals(this.redis.opsForSet()
            .isMember(this.keyspace.product(token.productId()).gone(), token.userId()));
    }

    /** The user left. @return whether the token's user held a place */
    public boolean remove(Token token) {
        return remove(token, "LEFT");
    }

    /**
     * The operator ended the place (WAITING or AVAILABLE): the same as a leave, audited as REVOKED.
     * @return whether the token's user held a place
     */
    public boolean revoke(Token token) {
        return remove(token, "REVOKED");
    }

    private boolean remove(Token token, String auditType) {
        QueueKeys keys = this.keyspace.product(token.productId());
        List<String> touched = "REVOKED".equals(auditType)
                ? List.of(keys.waiting(), keys.entry(), keys.gone(), keys.stats(), keys.audit(), keys.revoked())
                : List.of(keys.waiting(), keys.entry(), keys.gone(), keys.stats(), keys.audit());
        Long removed = this.timer.time("leave_place", () -> this.redis.execute(QueueScripts.LEAVE_PLACE, touched,
                token.userId(), Long.toString(ScriptTime.REDIS_TIME), auditType));
        return removed != null && removed > 0;
    }
}
