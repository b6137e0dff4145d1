package io.queuegate.admission.line;

import java.util.UUID;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Which Redis the lines were written to, so that the writer notices one that lost them: a restart without
 * persistence, a wiped node, a failover that dropped its last writes. The id lives in Redis
 * ({@link QueueKeys#LINE_EPOCH}) and goes with every offset the writer commits; offsets committed under another id
 * (or under one the Redis no longer has) say nothing about this Redis, so its lines are rebuilt from the start of
 * the log. Replaying is safe: the line skips records at or below each product's applied offset, and people
 * already placed.
 */
@Component
class LineEpoch {

    private final StringRedisTemplate redis;

    /** The id's key, in this deployment's keyspace. */
    private final String key;

    /** The id of the Redis the writer believes it is writing to; null before the first assignment. */
    private volatile String adopted;

    LineEpoch(StringRedisTemplate redis, Keyspace keyspace) {
        this.redis = redis;
        this.key = keyspace.lineEpoch();
    }

    /**
     * The Redis's id, after giving it one when it has none. The first writer to find it missing names it; the
     * others read that name.
     *
     * @return the id, and whether it was missing (a new Redis, or one that lost everything)
     */
    Reading read() {
        String current = this.redis.opsForValue().get(this.key);
        if (current != null) {
            return new Reading(current, false);
        }
        this.redis.opsForValue().setIfAbsent(this.key, UUID.randomUUID().toString());
        return new Reading(this.redis.opsForValue().get(this.key), true);
    }

    void adopt(String epoch) {
        this.adopted = epoch;
    }

    /** The id committed with the offsets; empty until the writer has checked one. */
    String adopted() {
        String epoch = this.adopted;
        return epoch == null ? "" : epoch;
    }

    /** Whether Redis still carries the id the writer adopted: false once it lost its data since. */
    boolean unchanged() {
        String epoch = this.adopted;
        return epoch != null && epoch.equals(this.redis.opsForValue().get(this.key));
    }

    /**
     * Whether Redis no longer carries the id the writer adopted: it lost its data since. False before the first
     * assignment, when there is nothing to lose yet.
     */
    boolean lost() {
        return this.adopted != null && !unchanged();
    }

    record Reading(String epoch, boolean wasMissing) {
    }
}
