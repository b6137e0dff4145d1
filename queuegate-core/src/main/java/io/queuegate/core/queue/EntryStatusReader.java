package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.token.EntryToken;

import io.micrometer.core.instrument.Metrics;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Reads tokens' statuses in one Redis round trip; see {@code read_status.lua}. */
public class EntryStatusReader {

    /** Fields the script answers per token, after the product's admission rate. */
    private static final int FIELDS = 3;

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    public EntryStatusReader(StringRedisTemplate redis) {
        this(redis, new ScriptTimer(Metrics.globalRegistry));
    }

    public EntryStatusReader(StringRedisTemplate redis, ScriptTimer timer) {
        this.redis = redis;
        this.timer = timer;
    }

    /** @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME} */
    public EntryState read(EntryToken token, long nowMillis) {
        return readAll(token.productId(), List.of(token.userId()), nowMillis).getFirst();
    }

    /**
     * Reads many users of one product at one instant.
     *
     * @param userIds the users of verified tokens of this product (the line holds user ids)
     * @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME}
     * @return one state per user, in the order of {@code userIds}
     */
    public List<EntryState> readAll(long productId, List<String> userIds, long nowMillis) {
        QueueKeys keys = QueueKeys.of(productId);
        Object[] args = new Object[userIds.size() + 1];
        args[0] = Long.toString(nowMillis);
        for (int i = 0; i < userIds.size(); i++) {
            args[i + 1] = userIds.get(i);
        }
        List<?> reply = this.timer.time("read_status", () -> this.redis.execute(QueueScripts.READ_STATUS,
                List.of(keys.entry(), keys.waiting(), keys.gone(), keys.settings()), args));
        if (reply == null || reply.size() != 1 + FIELDS * userIds.size()) {
            throw new IllegalStateException("read_status.lua answered " + reply + " for " + userIds.size() + " users");
        }
        int rate = (int) Admission.number(reply.getFirst());
        List<EntryState> states = new ArrayList<>(userIds.size());
        for (int i = 1; i < reply.size(); i += FIELDS) {
            states.add(new EntryState(EntryStatus.valueOf(reply.get(i).toString()), Admission.number(reply.get(i + 1)),
                    Admission.number(reply.get(i + 2)), rate));
        }
        return states;
    }
}
