package io.queuegate.yardstick.seed;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed design against the real Redis on 127.0.0.1:6379. The server is shared: every test uses its own key prefix
 * and product and deletes only those keys.
 */
class WaitingServiceTests {

    private static LettuceConnectionFactory connectionFactory;

    private static StringRedisTemplate redis;

    private final SeedKeys keys = new SeedKeys("test-seed-" + ThreadLocalRandom.current().nextInt(1_000_000) + ":");

    private final long product = 42;

    private WaitingService waiting;

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
        connectionFactory.destroy();
    }

    @BeforeEach
    void createService() {
        this.waiting = new WaitingService(redis, this.keys);
    }

    @AfterEach
    void deleteKeys() {
        redis.delete(List.of(this.keys.waiting(this.product), this.keys.entry(this.product)));
    }

    @Test
    void enteringPutsANewTokenInTheProductsLineUnderThePrefix() {
        String token = this.waiting.setWaiting(this.product);

        assertThat(redis.opsForZSet().score(this.keys.waiting(this.product), token)).isNotNull();
        assertThat(this.keys.waiting(this.product)).startsWith(this.keys.keyPrefix()).endsWith("waiting:{42}");
    }

    @Test
    void aWaitingTokenSeesItsPlaceCountedFromOne() {
        redis.opsForZSet().add(this.keys.waiting(this.product), "first", 1);
        redis.opsForZSet().add(this.keys.waiting(this.product), "second", 2);

        QueueStatusResponse status = this.waiting.check("second", this.product);

        assertThat(status.status()).isEqualTo(QueueStatus.WAITING);
        assertThat(status.rank()).isEqualTo(2);
    }

    @Test
    void aTokenInEntryIsAvailableBeforeItsPlaceInLineIsLookedUp() {
        redis.opsForZSet().add(this.keys.waiting(this.product), "admitted", 1);
        redis.opsForZSet().add(this.keys.entry(this.product), "admitted", System.currentTimeMillis() + 60_000);

        assertThat(this.waiting.check("admitted", this.product).status()).isEqualTo(QueueStatus.AVAILABLE);
    }

    @Test
    void aTokenInNeitherSetIsExpired() {
        assertThat(this.waiting.check("unknown", this.product).status()).isEqualTo(QueueStatus.EXPIRED);
    }
}
