package io.queuegate.core.warmup;

import java.time.Duration;

import io.queuegate.core.queue.RedisKeyProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * A service's warm-up: run at start, before the service says it is ready (Spring Boot reports readiness, and
 * {@code /actuator/health}, which {@code ./run.sh --detach} waits for, only once every runner has returned), through
 * a {@link ScratchCopy} of the service. A warm-up that fails (no Redis or broker yet) is logged and the service starts
 * cold rather than not at all: its readiness says what it lacks.
 */
public abstract class WarmUpRunner implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUpRunner.class);

    private final boolean enabled;

    private final RedisKeyProperties keys;

    private final StringRedisTemplate redis;

    private final KafkaAdmin kafka;

    /**
     * @param duration the warm-up's cap; zero turns it off
     * @param scratch whether this is the scratch copy itself, which does not warm up in turn
     */
    protected WarmUpRunner(Duration duration, boolean scratch, RedisKeyProperties keys, StringRedisTemplate redis,
            KafkaAdmin kafka) {
        this.enabled = !duration.isZero() && !scratch;
        this.keys = keys;
        this.redis = redis;
        this.kafka = kafka;
    }

    @Override
    public final void run(ApplicationArguments arguments) {
        if (!this.enabled) {
            return;
        }
        try (ScratchCopy copy = new ScratchCopy(this.keys.keyPrefix(), this.redis, this.kafka)) {
            warmUp(copy, arguments.getSourceArgs());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (Exception ex) {
            log.warn("The warm-up failed; starting without it: {}", ex.toString());
        }
    }

    /** Starts the copy with the service's arguments and drives it; the copy is closed, and cleaned up, after. */
    protected abstract void warmUp(ScratchCopy copy, String[] arguments) throws Exception;
}
