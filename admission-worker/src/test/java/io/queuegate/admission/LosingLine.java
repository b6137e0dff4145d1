package io.queuegate.admission;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.queuegate.core.queue.AppendResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.queue.WaitingLine;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The worker's line, which a test may tell to lose one chunk of a product on the way to Redis: the first one that
 * is not the first of its batch, so chunks of the same batch are sent behind it. Every other chunk goes to Redis as
 * usual. It is part of every worker test's context, so that the tests share one context and one embedded broker.
 */
class LosingLine extends WaitingLine {

    volatile long product;

    volatile boolean lost;

    final List<AppendResult> refused = Collections.synchronizedList(new ArrayList<>());

    private final AtomicBoolean losing = new AtomicBoolean();

    LosingLine(StringRedisTemplate redis, ScriptTimer timer) {
        super(redis, timer, Keyspace.DEFAULT);
    }

    void loseOneChunkOf(long productId) {
        this.product = productId;
        this.losing.set(true);
    }

    @Override
    public CompletableFuture<AppendResult> appendAsync(LineChunk chunk, String restoredFor) {
        if (chunk.productId() != this.product) {
            return super.appendAsync(chunk, restoredFor);
        }
        if (chunk.after() != LineChunk.UNKNOWN && this.losing.compareAndSet(true, false)) {
            this.lost = true;
            return CompletableFuture.failedFuture(new RedisConnectionFailureException("lost on the way"));
        }
        return super.appendAsync(chunk, restoredFor).whenComplete((result, failure) -> {
            if (result != null && result.refused()) {
                this.refused.add(result);
            }
        });
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Configuration {

        @Bean
        @Primary
        LosingLine losingLine(StringRedisTemplate redis, ScriptTimer timer) {
            return new LosingLine(redis, timer);
        }
    }
}
