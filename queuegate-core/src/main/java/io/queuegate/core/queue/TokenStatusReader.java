package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.token.Token;

import org.springframework.data.redis.core.StringRedisTemplate;

import static io.queuegate.core.queue.ScriptReplies.number;

/** Reads tokens' statuses in one Redis round trip; see {@code read_status.lua}. */
public class TokenStatusReader {

    /** Fields the script answers about the line, before the users. */
    private static final int HEADER = 9;

    /** Fields the script answers per user. */
    private static final int FIELDS = 4;

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    public TokenStatusReader(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /** @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME} */
    public TokenState read(Token token, long nowMillis) {
        return readAll(token.productId(), List.of(token.userId()), nowMillis).getFirst();
    }

    /**
     * Reads many users of one product at one instant.
     *
     * @param userIds the users of verified tokens of this product (the line holds user ids)
     * @param nowMillis epoch milliseconds, or {@link ScriptTime#REDIS_TIME}
     * @return one state per user, in the order of {@code userIds}
     */
    public List<TokenState> readAll(long productId, List<String> userIds, long nowMillis) {
        QueueKeys keys = this.keyspace.product(productId);
        Object[] args = new Object[userIds.size() + 1];
        args[0] = Long.toString(nowMillis);
        for (int i = 0; i < userIds.size(); i++) {
            args[i + 1] = userIds.get(i);
        }
        List<?> reply = this.timer.time("read_status", () -> this.redis.execute(QueueScripts.READ_STATUS,
                List.of(keys.entry(), keys.waiting(), keys.gone(), keys.settings(), keys.stats(), keys.stock(),
                        keys.seen()), args));
        if (reply == null || reply.size() != HEADER + FIELDS * userIds.size()) {
            throw new IllegalStateException("read_status.lua answered " + reply + " for " + userIds.size() + " users");
        }
        LineConditions line = new LineConditions(Double.parseDouble(reply.get(0).toString()),
                (int) number(reply.get(1)), number(reply.get(2)),
                (int) number(reply.get(3)), number(reply.get(4)), Double.parseDouble(reply.get(5).toString()),
                number(reply.get(6)) == 1, number(reply.get(7)), number(reply.get(8)));
        List<TokenState> states = new ArrayList<>(userIds.size());
        for (int i = HEADER; i < reply.size(); i += FIELDS) {
            states.add(new TokenState(TokenStatus.valueOf(reply.get(i).toString()), number(reply.get(i + 1)),
                    number(reply.get(i + 2)), number(reply.get(i + 3)), line));
        }
        return states;
    }
}
