package io.queuegate.core.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.Token;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the queue's scripts against the real Redis of {@link TestRedis}, each test on a product of its own whose
 * keys it deletes afterwards.
 */
abstract class RedisScriptTestSupport {

    static final long NOW = TestRedis.NOW;

    static final StringRedisTemplate redis = TestRedis.template();

    long product;

    QueueKeys keys;

    QueueStore store;

    WaitingLine waitingLine;

    /** Appends as the line writer does, each call the next stretch of one partition. */
    LogAppender line;

    Admission admission;

    TokenStatusReader statusReader;

    Leaving remover;

    @BeforeEach
    void newProduct() {
        this.product = TestRedis.unusedProduct(redis);
        this.keys = QueueKeys.of(this.product);
        this.store = new QueueStore(redis);
        this.waitingLine = new WaitingLine(redis, TestRedis.TIMER, Keyspace.DEFAULT);
        this.line = new LogAppender(this.waitingLine, "test-topic:0");
        this.admission = new Admission(redis, TestRedis.TIMER, Keyspace.DEFAULT);
        this.statusReader = new TokenStatusReader(redis, TestRedis.TIMER, Keyspace.DEFAULT);
        this.remover = new Leaving(redis, TestRedis.TIMER, Keyspace.DEFAULT);
    }

    @AfterEach
    void deleteProduct() {
        this.waitingLine.destroy();
        redis.delete(this.keys.all());
        redis.opsForSet().remove(QueueKeys.REGISTRY, Long.toString(this.product));
    }

    /**
     * Writes the settings hash as {@link QueueStore#save} does, but leaves the product out of the shared registry:
     * an admission worker of another run on the same Redis walks the registry and would otherwise admit from
     * this test's line while the test counts it.
     */
    void configure(int maxActive, int admitPerSecond, int entryTtlSeconds, boolean open) {
        redis.opsForHash().putAll(this.keys.settings(), Map.of("maxActive", Integer.toString(maxActive),
                "admitPerSecond", Integer.toString(admitPerSecond), "entryTtlSeconds",
                Integer.toString(entryTtlSeconds), "open", Boolean.toString(open)));
    }

    static List<String> tokens(String prefix, int count) {
        List<String> tokens = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            tokens.add(String.format("%s-%05d", prefix, i));
        }
        return tokens;
    }

    /** A verified token of the given user: the line's sets hold user ids, which is what the tests name. */
    Token token(String userId) {
        return new Token(this.product, userId, "token-of-" + userId);
    }

    List<String> gone() {
        Set<String> members = redis.opsForSet().members(this.keys.gone());
        return members == null ? List.of() : List.copyOf(members);
    }

    List<String> waiting() {
        return zrange(this.keys.waiting());
    }

    List<String> entry() {
        return zrange(this.keys.entry());
    }

    /** Members in score order with their scores. */
    Map<String, Double> waitingScores() {
        return TestRedis.scores(redis, this.keys.waiting());
    }

    Map<String, Double> entryScores() {
        return TestRedis.scores(redis, this.keys.entry());
    }

    long stat(String field) {
        Object value = redis.opsForHash().get(this.keys.stats(), field);
        return value == null ? 0 : Long.parseLong(value.toString());
    }

    /**
     * The user's state, with the line's conditions as a known pace gives them: what the scripts' tests compare. The
     * range of an unmeasured pace and the head start are asserted on their own
     * ({@code ReadStatusScriptTests#theLineSaysItsPaceFloorWhetherItIsMeasuredAndItsHeadStart}).
     */
    TokenState status(String userId, long now) {
        return withKnownPace(this.statusReader.read(token(userId), now));
    }

    static TokenState withKnownPace(TokenState state) {
        LineConditions line = state.line();
        return new TokenState(state.status(), state.position(), state.expiresAt(), state.sinceLastPollMs(),
                new LineConditions(line.pace(), line.maxPollsPerSecond(), line.waiting(), line.abandonAfterSeconds(),
                        line.opensAt()));
    }

    /**
     * Sends each call's users as the next records of one partition, one user per record, as one chunk that
     * expects the previous call's chunk to be in.
     */
    static final class LogAppender {

        private final WaitingLine line;

        private final String source;

        private long next;

        private long after = LineChunk.UNKNOWN;

        LogAppender(WaitingLine line, String source) {
            this.line = line;
            this.source = source;
        }

        synchronized long append(long productId, List<String> userIds) {
            if (userIds.isEmpty()) {
                return 0;
            }
            LineChunk chunk = new LineChunk(productId, this.source, this.after, offsets(this.next, userIds.size()),
                    userIds);
            this.next += userIds.size();
            this.after = chunk.lastOffset();
            AppendResult result = this.line.append(chunk);
            if (result.refused()) {
                throw new IllegalStateException("refused: " + result);
            }
            return result.added();
        }
    }

    static long[] offsets(long first, int count) {
        long[] offsets = new long[count];
        for (int i = 0; i < count; i++) {
            offsets[i] = first + i;
        }
        return offsets;
    }

    private static List<String> zrange(String key) {
        Set<String> members = redis.opsForZSet().range(key, 0, -1);
        return members == null ? List.of() : List.copyOf(members);
    }
}
