package io.queuegate.ingest.edge;

import java.util.List;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Admits a visitor on the spot while the line is empty and has room; see {@code admit_at_edge.lua}, whose one step
 * is what keeps two edges (and the admission workers) from admitting past {@code maxActive} together.
 */
@Component
class EdgeAdmissions {

    @SuppressWarnings("rawtypes")
    static final RedisScript<List> ADMIT_AT_EDGE = QueueScripts.of("admit_at_edge", List.class);

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    private final long auditBacklogLimit;

    EdgeAdmissions(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace, EdgeProperties properties) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
        this.auditBacklogLimit = properties.auditBacklogLimit();
    }

    /**
     * The admission's expiry (epoch ms) when this new visitor was admitted; otherwise the reason (see the script)
     * and 0.
     */
    Outcome admit(long productId, String userId) {
        return admit(productId, userId, ScriptTime.REDIS_TIME);
    }

    /** The same at a given time (tests), or {@link ScriptTime#REDIS_TIME}. */
    Outcome admit(long productId, String userId, long now) {
        QueueKeys keys = this.keyspace.product(productId);
        List<?> reply = this.timer.time("admit_at_edge", () -> this.redis.execute(ADMIT_AT_EDGE,
                List.of(keys.settings(), keys.waiting(), keys.entry(), keys.stats(), keys.audit(), keys.stock()),
                userId, Long.toString(now), Long.toString(this.auditBacklogLimit)));
        if (reply == null || reply.size() < 2) {
            throw new IllegalStateException("admit_at_edge.lua answered " + reply);
        }
        boolean admitted = ((Number) reply.get(0)).longValue() == 1;
        return admitted ? new Outcome(true, ((Number) reply.get(1)).longValue(), "ADMITTED")
                : new Outcome(false, 0, reply.get(1).toString());
    }

    /**
     * @param admitted whether the visitor holds an entry now
     * @param expiresAt the entry's expiry, epoch ms; 0 when not admitted
     * @param reason {@code ADMITTED}, or why not (see the script)
     */
    record Outcome(boolean admitted, long expiresAt, String reason) {
    }
}
