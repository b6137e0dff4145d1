package io.queuegate.core.queue;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Runs one atomic admission step for one product; see {@code admit_batch.lua}. */
public class Admission {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    public Admission(StringRedisTemplate redis, ScriptTimer timer) {
        this.redis = redis;
        this.timer = timer;
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
        QueueKeys keys = QueueKeys.of(productId);
        List<?> reply = this.timer.time("admit_batch", () -> this.redis.execute(QueueScripts.ADMIT_BATCH,
                List.of(keys.waiting(), keys.entry(), keys.settings(), keys.stats(), keys.audit(), keys.gone(),
                        keys.stock(), keys.seen()),
                Long.toString(nowMillis), Integer.toString(maxBatch), seed));
        if (reply == null || reply.size() < 5) {
            return AdmissionResult.UNKNOWN_QUEUE;
        }
        return new AdmissionResult(number(reply.get(0)), number(reply.get(1)), number(reply.get(2)),
                number(reply.get(3)), number(reply.get(4)));
    }

    static long number(Object value) {
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
