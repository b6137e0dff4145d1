package io.queuegate.core.queue;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;

import static io.queuegate.core.queue.ScriptReplies.number;

/**
 * Runs one atomic admission step for one product; see {@code admit_batch.lua}. A step that admitted anyone publishes
 * the product's id on {@link Keyspace#admissionsChannel()}, so that ingest tells the admitted at once rather than at
 * its next read of their streams.
 */
public class Admission {

    /**
     * The most unrelayed changes a product's audit stream holds before its admission step holds, unless the caller
     * gives its own bound (the worker's {@code queuegate.admission.audit-backlog-limit}).
     */
    public static final long AUDIT_BACKLOG_LIMIT = 100_000;

    private static final Logger log = LoggerFactory.getLogger(Admission.class);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    public Admission(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /**
     * @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME}
     * @param maxBatch the most entries one call may expire and the most it may admit
     */
    public AdmissionResult admit(long productId, long nowMillis, int maxBatch) {
        byte[] seed = new byte[16];
        RANDOM.nextBytes(seed);
        return admit(productId, nowMillis, maxBatch, HexFormat.of().formatHex(seed));
    }

    /**
     * @param seed the seed the step shuffles the early entrants with if it is the one that opens the sale; it is
     *        published then, so it must not be guessable before
     */
    public AdmissionResult admit(long productId, long nowMillis, int maxBatch, String seed) {
        return admit(productId, nowMillis, maxBatch, seed, AUDIT_BACKLOG_LIMIT);
    }

    /**
     * @param auditBacklogLimit the most unrelayed changes the product's audit stream may hold: at that many, the step
     *        holds, changing nothing ({@link AdmissionResult#auditBacklogFull()})
     */
    public AdmissionResult admit(long productId, long nowMillis, int maxBatch, String seed, long auditBacklogLimit) {
        QueueKeys keys = this.keyspace.product(productId);
        List<?> reply = this.timer.time("admit_batch", () -> this.redis.execute(QueueScripts.ADMIT_BATCH,
                List.of(keys.waiting(), keys.entry(), keys.settings(), keys.stats(), keys.audit(), keys.gone(),
                        keys.stock(), keys.seen(), keys.held()),
                Long.toString(nowMillis), Integer.toString(maxBatch), seed, "", "", Long.toString(auditBacklogLimit)));
        return announced(productId, result(reply));
    }

    /**
     * One admission step run only by the holder of the queue's admission lease ({@link QueueKeys#admissionLease()}):
     * the step renews the caller's lease, or takes it when nobody holds it, and does nothing when another worker
     * does. Checked in the step itself, so a worker whose lease lapsed and was taken over admits nothing however
     * late its call arrives.
     *
     * @param holder the calling worker's id
     * @param leaseMillis how long the lease lasts from this step unless renewed
     * @param auditBacklogLimit the most unrelayed changes the product's audit stream may hold: at that many, the step
     *        holds, changing nothing ({@link AdmissionResult#auditBacklogFull()})
     * @return the step's result, or empty when another worker holds the lease
     */
    public Optional<AdmissionResult> admitAsHolder(long productId, long nowMillis, int maxBatch, String holder,
            long leaseMillis, long auditBacklogLimit) {
        QueueKeys keys = this.keyspace.product(productId);
        byte[] seed = new byte[16];
        RANDOM.nextBytes(seed);
        List<?> reply = this.timer.time("admit_batch", () -> this.redis.execute(QueueScripts.ADMIT_BATCH,
                List.of(keys.waiting(), keys.entry(), keys.settings(), keys.stats(), keys.audit(), keys.gone(),
                        keys.stock(), keys.seen(), keys.held(), keys.admissionLease()),
                Long.toString(nowMillis), Integer.toString(maxBatch), HexFormat.of().formatHex(seed), holder,
                Long.toString(leaseMillis), Long.toString(auditBacklogLimit)));
        if (reply != null && reply.size() == 1 && number(reply.getFirst()) == -2) {
            return Optional.empty();
        }
        return Optional.of(announced(productId, result(reply)));
    }

    /**
     * Publishes the product's id when the step admitted anyone. Only news: a message lost (nobody subscribed, a
     * failed publish, a failover) delays the admitted's event to the next read of their streams, a step later, and
     * the step itself is done either way, so a failed publish must not fail it.
     */
    private AdmissionResult announced(long productId, AdmissionResult result) {
        if (result.admitted() > 0) {
            try {
                this.redis.convertAndSend(this.keyspace.admissionsChannel(), Long.toString(productId));
            }
            catch (RuntimeException ex) {
                log.debug("could not announce the admissions of product {}: {}", productId, ex.toString());
            }
        }
        return result;
    }

    private static AdmissionResult result(List<?> reply) {
        if (reply == null || reply.size() < 5) {
            return AdmissionResult.UNKNOWN_QUEUE;
        }
        return new AdmissionResult(number(reply.get(0)), number(reply.get(1)), number(reply.get(2)),
                number(reply.get(3)), number(reply.get(4)), reply.size() > 5 && number(reply.get(5)) == 1,
                reply.size() > 6 && number(reply.get(6)) == 1);
    }
}
