package io.queuegate.gate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

/**
 * Runs the gate against the real Redis on 127.0.0.1:6379. The server is shared: every test uses a random product
 * id, never registers it, and deletes only that product's keys afterwards.
 */
abstract class GateRedisTestSupport {

    /** A fixed clock for the scripts: 2023-11-14T22:13:20Z. */
    static final long NOW = 1_700_000_000_000L;

    static final String SECRET = "gate-test-token-secret-0123456789";

    static final int MAX_QUANTITY = 4;

    static LettuceConnectionFactory connectionFactory;

    static StringRedisTemplate redis;

    final TokenCodec codec = new TokenCodec(SECRET);

    EntryGate gate;

    long product;

    QueueKeys keys;

    @BeforeAll
    static void connect() {
        connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 6379));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        redis = new StringRedisTemplate(connectionFactory);
        redis.afterPropertiesSet();
    }

    @AfterAll
    static void disconnect() {
        if (connectionFactory != null) {
            connectionFactory.destroy();
        }
    }

    @BeforeEach
    void newProduct() {
        this.product = unusedProduct();
        this.keys = QueueKeys.of(this.product);
        this.gate = new EntryGate(redis, this.codec, JsonMapper.shared(), new GateProperties(MAX_QUANTITY));
    }

    @AfterEach
    void deleteProduct() {
        redis.delete(this.keys.all());
    }

    /** A random product id none of whose keys exist, so another run on the same Redis is never touched. */
    static long unusedProduct() {
        while (true) {
            long candidate = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
            if (redis.countExistingKeys(QueueKeys.of(candidate).all()) == 0) {
                return candidate;
            }
        }
    }

    String token(String userId) {
        return this.codec.issue(this.product, userId).value();
    }

    /**
     * The user a token names, which is what the line's sets hold: read from the token's bytes without checking its
     * MAC, so that a forged or tampered token names the user it pretends to be.
     */
    static String userNamedBy(String token) {
        byte[] bytes = java.util.Base64.getUrlDecoder().decode(token);
        int at = 1;
        while ((bytes[at] & 0x80) != 0) {
            at++;
        }
        return new String(bytes, at + 1, bytes.length - 16 - at - 1, java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Puts the token's user in entry:{p} as admission would, expiring at {@code expiresAt}. */
    void admit(String token, long expiresAt) {
        redis.opsForZSet().add(this.keys.entry(), userNamedBy(token), expiresAt);
    }

    Set<String> gone() {
        return redis.opsForSet().members(this.keys.gone());
    }

    void stock(long units) {
        redis.opsForValue().set(this.keys.stock(), Long.toString(units));
    }

    String stockValue() {
        return redis.opsForValue().get(this.keys.stock());
    }

    Double entryScore(String token) {
        return redis.opsForZSet().score(this.keys.entry(), userNamedBy(token));
    }

    /** entry:{p}: user → expiry. */
    Map<String, Double> entries() {
        Set<TypedTuple<String>> tuples = redis.opsForZSet().rangeWithScores(this.keys.entry(), 0, -1);
        Map<String, Double> scores = new LinkedHashMap<>();
        if (tuples != null) {
            tuples.forEach((tuple) -> scores.put(tuple.getValue(), tuple.getScore()));
        }
        return scores;
    }

    Map<Object, Object> bookings() {
        return redis.opsForHash().entries(this.keys.bookings());
    }

    Map<Object, Object> stats() {
        return redis.opsForHash().entries(this.keys.stats());
    }

    /** The product's audit trail, oldest first: each entry's fields. */
    List<Map<Object, Object>> audit() {
        List<MapRecord<String, Object, Object>> records = redis.opsForStream().range(this.keys.audit(),
                Range.unbounded());
        return records == null ? List.of() : records.stream().map(MapRecord::getValue).toList();
    }

    long stat(String field) {
        Object value = redis.opsForHash().get(this.keys.stats(), field);
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
