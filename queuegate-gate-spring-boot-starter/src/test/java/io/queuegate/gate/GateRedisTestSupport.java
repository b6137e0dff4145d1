package io.queuegate.gate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.TokenCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the gate against the real Redis of {@link TestRedis}: every test uses a product of its own, never registers
 * it, and deletes only that product's keys afterwards.
 */
abstract class GateRedisTestSupport {

    static final long NOW = TestRedis.NOW;

    static final String SECRET = TestSecrets.random("gate-test-token-secret");

    static final int MAX_QUANTITY = 4;

    /** The audit backlog at which these tests' gate refuses to reserve: small, so that a test can reach it. */
    static final long AUDIT_BACKLOG_LIMIT = 50;

    static final StringRedisTemplate redis = TestRedis.template();

    final TokenCodec codec = new TokenCodec(SECRET);

    AdmissionGate gate;

    StockLedger stockLedger;

    BookingLookup bookingLookup;

    long product;

    QueueKeys keys;

    @BeforeEach
    void newProduct() {
        this.product = unusedProduct();
        this.keys = QueueKeys.of(this.product);
        this.gate = new AdmissionGate(redis, this.codec, JsonMapper.shared(), properties(0),
                TestRedis.TIMER);
        this.stockLedger = new StockLedger(redis);
        this.bookingLookup = new BookingLookup(redis, JsonMapper.shared());
    }

    /** The gate's settings of these tests, waiting for that many replicas (which the shared Redis has none of). */
    static GateProperties properties(int replicaAcks) {
        return new GateProperties(MAX_QUANTITY, null, replicaAcks, Duration.ofMillis(50), AUDIT_BACKLOG_LIMIT);
    }

    @AfterEach
    void deleteProduct() {
        redis.delete(this.keys.all());
    }

    static long unusedProduct() {
        return TestRedis.unusedProduct(redis);
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
        return TestRedis.scores(redis, this.keys.entry());
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
