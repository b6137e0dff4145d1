package io.queuegate.yardstick.seed;

import java.util.UUID;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

/**
 * The seed design's enter and status, one Redis call per step as the post has them. Kept as they are, the wall-clock
 * score and the two lookups per poll included: they are what Queuegate is measured against, not a design to copy.
 */
@Service
record WaitingService(StringRedisTemplate redis, SeedKeys keys) {

    /** A new random token in the product's line, scored by now: one synchronous {@code ZADD}. */
    String setWaiting(long productId) {
        String token = UUID.randomUUID().toString();
        this.redis.opsForZSet().add(this.keys.waiting(productId), token, System.currentTimeMillis());
        return token;
    }

    /** {@code ZSCORE} in entry, then, for a token not admitted, {@code ZRANK} in waiting: two round trips. */
    QueueStatusResponse check(String token, long productId) {
        Double score = this.redis.opsForZSet().score(this.keys.entry(productId), token);
        if (score != null) {
            return new QueueStatusResponse(QueueStatus.AVAILABLE, 0L, token, "The token may book now.");
        }
        Long rank = this.redis.opsForZSet().rank(this.keys.waiting(productId), token);
        if (rank == null) {
            return new QueueStatusResponse(QueueStatus.EXPIRED, 0L, token, "Unknown token; enter the line again.");
        }
        return new QueueStatusResponse(QueueStatus.WAITING, rank + 1, token, "Waiting in line.");
    }
}
