package io.queuegate.gate;

import io.queuegate.core.queue.QueueKeys;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Administers a product's stock, the units the gate may still reserve. */
public class StockLedger {

    private final StringRedisTemplate redis;

    public StockLedger(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** Sets the units left to sell. */
    public void set(long productId, long available) {
        this.redis.opsForValue().set(QueueKeys.of(productId).stock(), Long.toString(available));
    }

    /** The units left to sell; 0 for a product whose stock was never set. */
    public long available(long productId) {
        String value = this.redis.opsForValue().get(QueueKeys.of(productId).stock());
        return value == null ? 0 : Long.parseLong(value);
    }
}
