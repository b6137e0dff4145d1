package io.queuegate.admission.line;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.WaitingLine;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
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

    private static final String RUN = "@";

    private final StringRedisTemplate redis;

    /** The id's key, in this deployment's keyspace. */
    private final String key;

    /** The Redis the writer believes it is writing to; null before the first assignment. */
    private volatile Reading adopted;

    /**
     * The last offset Redis confirmed it applied, per product and partition, since the partitions were assigned:
     * what the first chunk of each batch expects, so that a Redis that went back in time refuses it.
     */
    private final Map<LineSource, Long> confirmed = new ConcurrentHashMap<>();

    /** Set when Redis answered below what it confirmed: the next assignment reads the log again from the start. */
    private volatile boolean behind;

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
        String current = this.redis.opsForValue().get(this.key);
        boolean missing = current == null;
        if (missing) {
            this.redis.opsForValue().setIfAbsent(this.key, UUID.randomUUID().toString());
            current = this.redis.opsForValue().get(this.key);
        }
        return new Reading(current, missing, process());
    }

    /**
     * The run_id of the Redis process, read after the id: a restart between the two reads shows as a process that
     * differs from the one the offsets were committed with, never the other way round. On a Redis Cluster, every
     * node's, folded into one value, so that any node's restart or failover changes it.
     */
    private String process() {
        Properties info = this.redis.execute((RedisCallback<Properties>) connection -> connection.serverCommands()
            .info("server"));
        List<String> runs = new ArrayList<>();
        if (info != null) {
            info.forEach((name, value) -> {
                if (name.toString().equals("run_id") || name.toString().endsWith(".run_id")) {
                    runs.add(value.toString());
                }
            });
        }
        if (runs.size() == 1) {
            return runs.getFirst();
        }
        Collections.sort(runs);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest(String.join(",", runs).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 20);
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Takes the Redis read on assignment as the one written to, and forgets what another one confirmed. */
    void adopt(Reading redis) {
        this.confirmed.clear();
        this.behind = false;
        this.adopted = redis;
    }

    /** What Redis last confirmed it applied from this source, or {@link LineChunk#UNKNOWN}. */
    long confirmed(LineSource source) {
        return this.confirmed.getOrDefault(source, LineChunk.UNKNOWN);
    }

    void confirm(LineSource source, long applied) {
        this.confirmed.merge(source, applied, Math::max);
    }

    /** Redis answered an append with less than it confirmed before: it lost writes, whatever its id and process. */
    void foundBehind() {
        this.behind = true;
    }

    /** Whether Redis was found behind what it confirmed since the last assignment. */
    boolean wasFoundBehind() {
        return this.behind;
    }

    /**
     * The process the writer's assignment restored the sale for, or found the committed offsets applied to, and
     * whose lines it reads from there on: a line another process stamped last takes its appends on this process
     * ({@link WaitingLine#appendAsync(LineChunk, String)}), and no other.
     */
    String restoredFor() {
        Reading redis = this.adopted;
        return redis == null ? WaitingLine.NO_PROCESS : redis.run();
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
        return redis != null && redis.epoch().equals(this.redis.opsForValue().get(this.key))
                && redis.run().equals(process());
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
