package io.queuegate.admission.line;

import java.util.List;
import java.util.UUID;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Which Redis the lines were written to, so that the writer notices one that lost them. Two things name it: the
 * lines' id ({@link QueueKeys#LINE_EPOCH}), which is gone when Redis lost everything (a restart without persistence,
 * a wiped node), and the run_id of the Redis process that serves it, which changes when Redis kept its data but may
 * have lost its last writes (AOF everysec killed, restarted from a snapshot, a failover to a replica a moment
 * behind). Both go with every offset the writer commits ({@link #metadata()}); offsets committed under another id or
 * another process say nothing certain about this Redis, so its lines are read again from the start of the log.
 * Replaying is safe: the line skips records at or below each product's applied offset, and people already placed.
 */
@Component
class LineEpoch {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> READ = QueueScripts.of("read_line_epoch", List.class);

    private static final String RUN = "@";

    private final StringRedisTemplate redis;

    /** The id's key, in this deployment's keyspace. */
    private final String key;

    /** The Redis the writer believes it is writing to; null before the first assignment. */
    private volatile Reading adopted;

    LineEpoch(StringRedisTemplate redis, Keyspace keyspace) {
        this.redis = redis;
        this.key = keyspace.lineEpoch();
    }

    /**
     * The Redis's id and process, after giving it an id when it has none. The first writer to find it missing names
     * it; the others read that name.
     *
     * @return the id, the process, and whether the id was missing (a new Redis, or one that lost everything)
     */
    Reading read() {
        return read(UUID.randomUUID().toString());
    }

    private Reading read(String naming) {
        List<?> reply = this.redis.execute(READ, List.of(this.key), naming);
        return new Reading(reply.get(0).toString(), ((Number) reply.get(1)).longValue() == 1, reply.get(2).toString());
    }

    void adopt(Reading redis) {
        this.adopted = redis;
    }

    /** What the offsets are committed with: the id and the process; empty until the writer has checked one. */
    String metadata() {
        Reading redis = this.adopted;
        return redis == null ? "" : redis.epoch() + RUN + redis.run();
    }

    /**
     * Whether offsets committed with this metadata were applied to the Redis read now: the same id and, when the
     * metadata names one, the same process. Metadata from before the process was recorded names only the id.
     */
    static boolean appliedTo(String metadata, Reading redis) {
        int at = metadata.indexOf(RUN);
        if (at < 0) {
            return metadata.equals(redis.epoch());
        }
        return metadata.substring(0, at).equals(redis.epoch()) && metadata.substring(at + 1).equals(redis.run());
    }

    /** Whether Redis still is the one the writer adopted: same id, same process. False once it may have lost data. */
    boolean unchanged() {
        Reading redis = this.adopted;
        if (redis == null) {
            return false;
        }
        Reading now = read("");
        return redis.epoch().equals(now.epoch()) && redis.run().equals(now.run());
    }

    /**
     * Whether Redis no longer is the one the writer adopted: it lost its data, or restarted or failed over and may
     * have lost its last writes. False before the first assignment, when there is nothing to lose yet.
     */
    boolean lost() {
        return this.adopted != null && !unchanged();
    }

    /**
     * @param epoch the lines' id
     * @param wasMissing whether Redis had no id: it lost everything
     * @param run the run_id of the Redis process that holds the id
     */
    record Reading(String epoch, boolean wasMissing, String run) {
    }
}
