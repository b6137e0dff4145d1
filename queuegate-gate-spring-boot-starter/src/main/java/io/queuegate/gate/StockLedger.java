package io.queuegate.gate;

import io.queuegate.core.queue.Keyspace;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Administers a product's stock, the units the gate may still reserve. */
public class StockLedger {

    private final StringRedisTemplate redis;

    private final Keyspace keyspace;

    public StockLedger(StringRedisTemplate redis) {
        this(redis, Keyspace.DEFAULT);
    }

    /** @param keyspace the queue's key names ({@code queuegate.redis.key-prefix}) */
    public StockLedger(StringRedisTemplate redis, Keyspace keyspace) {
        this.redis = redis;
        this.keyspace = keyspace;
    }

    /** Sets the units left to sell. */
    public void set(long productId, long available) {
        this.redis.opsForValue().set(this.keyspace.product(productId).stock(), Long.toString(available));
    }

    /** The units left to sell; 0 for a product whose stock was never set. */
    public long available(long productId) {
        String value = this.redis.opsForValue().get(this.keyspace.product(productId).stock());
        return value == null ? 0 : Long.parseLong(value);
    }
}
