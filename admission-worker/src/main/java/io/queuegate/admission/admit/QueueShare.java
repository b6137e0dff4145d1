package io.queuegate.admission.admit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.RegistryProperties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Shares the queues of one registry among the admission workers that walk it: each queue's admission steps and
 * audit relay run on one worker at a time, and a thousand queues spread over the workers instead of every worker
 * ticking all of them.
 *
 * <ul>
 * <li><b>Who is alive.</b> Every tick, each worker renews its heartbeat in a sorted set
 * ({@link Keyspace#admissionWorkers(String)}), scored by when it lapses in Redis time, and reads the live members.
 * <li><b>Who runs which queue.</b> Rendezvous hashing of (worker, queue) over the live members: every worker computes
 * the same owner on its own, and a worker joining or leaving moves only its own share.
 * <li><b>One at a time.</b> The owner holds the queue's admission lease, which {@code admit_batch.lua} checks, renews
 * or takes in the step itself. A worker that is no longer the owner gives the lease back at its next tick; one that
 * died stops renewing it, and the new owner takes it once it lapses ({@code lease-time}).
 * </ul>
 * While membership changes, two workers may briefly disagree about an owner: a queue may then wait a tick or a lease
 * time, but it never runs on two workers at once, because the lease decides.
 *
 * <p>A lifecycle bean so that a worker shutting down, after its ticker has stopped, leaves the members and gives its
 * leases back: the others take its queues over at their next tick instead of after a lease time.
 */
@Component
public class QueueShare implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(QueueShare.class);

    private static final RedisScript<Long> RELEASE_LEASE = QueueScripts.of("release_lease", Long.class);

    private final StringRedisTemplate redis;

    private final Keyspace keyspace;

    private final String workersKey;

    private final long leaseMillis;

    private final String workerId = UUID.randomUUID().toString();

    private final long workerHash = hash(this.workerId);

    /** Queues whose admission lease this worker took or renewed at its last step of them. */
    private final Set<Long> held = ConcurrentHashMap.newKeySet();

    /** The live workers at the last heartbeat, with their hashes; empty before the first. */
    private volatile List<Member> members = List.of();

    private volatile boolean running;

    /** When this worker last renewed its membership, {@link System#nanoTime()}. */
    private volatile long lastBeat;

    public QueueShare(StringRedisTemplate redis, Keyspace keyspace, RegistryProperties registry,
            AdmissionProperties properties) {
        this.redis = redis;
        this.keyspace = keyspace;
        this.workersKey = keyspace.admissionWorkers(registry.registry());
        this.leaseMillis = properties.leaseTime().toMillis();
    }

    public String workerId() {
        return this.workerId;
    }

    public long leaseMillis() {
        return this.leaseMillis;
    }

    /**
     * Renews this worker's membership and reads who else is alive: four commands on one key, whatever the number of
     * queues. Heartbeats are scored in Redis time, so workers on skewed hosts agree on who lapsed.
     */
    public void beat() {
        Long now = this.redis.execute((RedisCallback<Long>) (RedisConnection connection) -> connection
            .serverCommands()
            .time(TimeUnit.MILLISECONDS));
        if (now == null) {
            throw new IllegalStateException("Redis did not tell its time");
        }
        this.redis.opsForZSet().add(this.workersKey, this.workerId, now + this.leaseMillis);
        this.redis.opsForZSet().removeRangeByScore(this.workersKey, Double.NEGATIVE_INFINITY, now);
        Set<String> live = this.redis.opsForZSet().rangeByScore(this.workersKey, now, Double.POSITIVE_INFINITY);
        List<Member> members = new ArrayList<>();
        members.add(new Member(this.workerId, this.workerHash));
        if (live != null) {
            live.stream().filter(id -> !id.equals(this.workerId)).forEach(id -> members.add(new Member(id, hash(id))));
        }
        this.members = List.copyOf(members);
        this.lastBeat = System.nanoTime();
    }

    /**
     * Renews the membership when a quarter of its time has passed since the last renewal: a tick that takes longer
     * than usual (many queues, a slow Redis) must not let this worker lapse while it is working, or the others would
     * take its queues for a dead worker's.
     */
    public void beatIfDue() {
        if (System.nanoTime() - this.lastBeat > this.leaseMillis * 250_000L) {
            beat();
        }
    }

    /** How many workers share the queues, this one included, at the last heartbeat. */
    public int memberCount() {
        return Math.max(1, this.members.size());
    }

    /**
     * Whether this worker should run the queue: it scores highest of the live workers. Before the first heartbeat a
     * worker counts as alone; the lease keeps it from running a queue another worker holds.
     */
    public boolean owns(long productId) {
        List<Member> members = this.members;
        if (members.size() <= 1) {
            return true;
        }
        Member best = null;
        long bestScore = 0;
        for (Member member : members) {
            long score = mix(member.hash() ^ (productId * 0x9E3779B97F4A7C15L));
            if (best == null || score > bestScore || (score == bestScore && member.id().compareTo(best.id()) < 0)) {
                best = member;
                bestScore = score;
            }
        }
        return best.id().equals(this.workerId);
    }

    /** Notes whether the last step of the queue found this worker holding its lease. */
    void held(long productId, boolean holds) {
        if (holds) {
            this.held.add(productId);
        }
        else {
            this.held.remove(productId);
        }
    }

    /**
     * Gives back the leases of queues this worker holds but should not run (another worker joined, or the queue was
     * removed from the registry), so their new owner takes them at its next tick.
     */
    void releaseAllBut(Collection<Long> running) {
        for (Long productId : List.copyOf(this.held)) {
            if (!running.contains(productId)) {
                release(productId);
            }
        }
    }

    private void release(long productId) {
        this.redis.execute(RELEASE_LEASE, List.of(this.keyspace.product(productId).admissionLease()), this.workerId);
        this.held.remove(productId);
    }

    /** Leaves the members and gives back every lease this worker holds. */
    void leave() {
        try {
            for (Long productId : List.copyOf(this.held)) {
                release(productId);
            }
            this.redis.opsForZSet().remove(this.workersKey, this.workerId);
        }
        catch (RuntimeException ex) {
            log.warn("could not give back the queues' leases; they lapse in {} ms: {}", this.leaseMillis,
                    ex.toString());
        }
    }

    @Override
    public void start() {
        this.running = true;
    }

    @Override
    public void stop() {
        this.running = false;
        leave();
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    /** Stops after the ticker (which stops in the default, last phase), so no step follows the leaving. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 1;
    }

    /** FNV-1a, 64 bits: the same for a worker id on every JVM. */
    private static long hash(String id) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            hash ^= id.charAt(i);
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** SplitMix64's finalizer: spreads (worker, queue) pairs evenly over the scores. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private record Member(String id, long hash) {
    }
}
