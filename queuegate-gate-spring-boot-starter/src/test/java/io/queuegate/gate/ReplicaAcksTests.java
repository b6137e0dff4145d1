package io.queuegate.gate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.PrivateRedis;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@code queuegate.gate.replica-acks}: a reservation stands only once a replica holds it. On Redis servers of this
 * test's own, a master and, for one test, its replica: the shared Redis has no replica to acknowledge anything.
 */
class ReplicaAcksTests {

    private static final long PRODUCT = 42;

    private final TokenCodec codec = new TokenCodec(TestSecrets.random("replica-acks-test-secret"));

    private final QueueKeys keys = QueueKeys.of(PRODUCT);

    private PrivateRedis master;

    private PrivateRedis replica;

    private StringRedisTemplate redis;

    @BeforeEach
    void startMaster() {
        this.master = PrivateRedis.start();
        this.redis = this.master.template(Duration.ofSeconds(1));
        this.redis.opsForZSet().add(this.keys.entry(), "alice", System.currentTimeMillis() + 3_600_000);
        this.redis.opsForValue().set(this.keys.stock(), "10");
    }

    @AfterEach
    void stopRedis() {
        if (this.replica != null) {
            this.replica.close();
        }
        this.master.close();
    }

    @Test
    void aReservationNoReplicaAcknowledgesIsUndoneAndAnswered503() {
        AdmissionGate gate = gate(this.redis, 1, Duration.ofMillis(200));

        assertThatExceptionOfType(ApiException.class)
            .isThrownBy(() -> gate.reserve(PRODUCT, token("alice"), 2))
            .satisfies((ex) -> assertThat(ex.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));

        // as before the call: still admitted, the stock whole, no booking or reservation left
        assertThat(this.redis.opsForZSet().score(this.keys.entry(), "alice")).isNotNull();
        assertThat(this.redis.opsForValue().get(this.keys.stock())).isEqualTo("10");
        assertThat(this.redis.opsForHash().entries(this.keys.bookings())).isEmpty();
        assertThat(this.redis.opsForHash().entries(this.keys.reservations())).isEmpty();
        assertThat(this.redis.opsForSet().isMember(this.keys.gone(), "alice")).isFalse();
    }

    @Test
    void aReservationAReplicaHoldsStands() {
        this.replica = PrivateRedis.start();
        StringRedisTemplate copy = this.replica.template(Duration.ofSeconds(1));
        copy.execute((RedisCallback<Void>) connection -> {
            connection.serverCommands().replicaOf("127.0.0.1", this.master.port());
            return null;
        });
        await().atMost(Duration.ofSeconds(20))
            .until(() -> "10".equals(copy.opsForValue().get(this.keys.stock())));

        // WAIT answers as soon as the replica has it: the long timeout only covers a slow machine
        Reservation reservation = gate(this.redis, 1, Duration.ofSeconds(10)).reserve(PRODUCT, token("alice"), 2);

        Map<Object, Object> bookings = copy.opsForHash().entries(this.keys.bookings());
        assertThat(bookings).as("on the replica when the gate answers").containsOnlyKeys(reservation.bookingId());
        assertThat(copy.opsForValue().get(this.keys.stock())).isEqualTo("8");
        assertThat(copy.opsForZSet().score(this.keys.entry(), "alice")).isNull();
    }

    @Test
    void aGateOnARedisClusterRefusesToWaitForReplicas() {
        // WAIT would reach whichever node the client picks, not the one that ran the product's script
        LettuceConnectionFactory cluster = new LettuceConnectionFactory(
                new RedisClusterConfiguration(List.of("127.0.0.1:1")));
        StringRedisTemplate template = new StringRedisTemplate(cluster);

        assertThatIllegalStateException().isThrownBy(() -> gate(template, 1, Duration.ofMillis(200)))
            .withMessageContaining("queuegate.gate.replica-acks");
        assertThat(gate(template, 0, Duration.ofMillis(200))).isNotNull();
    }

    private AdmissionGate gate(StringRedisTemplate template, int replicaAcks, Duration ackTimeout) {
        return new AdmissionGate(template, this.codec, JsonMapper.shared(),
                new GateProperties(4, null, replicaAcks, ackTimeout, 200_000), TestRedis.TIMER);
    }

    private String token(String userId) {
        return this.codec.issue(PRODUCT, userId).value();
    }
}
