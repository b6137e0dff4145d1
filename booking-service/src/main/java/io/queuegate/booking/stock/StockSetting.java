package io.queuegate.booking.stock;

import java.util.List;

import io.queuegate.booking.BookingProperties;
import io.queuegate.core.event.StockSet;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.web.DurableTopic;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Sets a product's stock in Redis and makes the setting durable on the stock topic before it is acknowledged, so
 * that a Redis that loses it gets back the stock as set minus what was booked since (see {@link StockSet}).
 */
@Component
class StockSetting {

    private static final RedisScript<Long> SET_STOCK = QueueScripts.of("set_stock", Long.class);

    private final StringRedisTemplate redis;

    private final DurableTopic<StockSet> stock;

    private final Keyspace keyspace;

    StockSetting(StringRedisTemplate redis, KafkaTemplate<String, StockSet> kafka, BookingProperties properties,
            Keyspace keyspace) {
        this.keyspace = keyspace;
        this.redis = redis;
        this.stock = new DurableTopic<>(kafka, properties.stockTopic(), properties.publishTimeout());
    }

    /**
     * Redis first, then the log: the units booked at the moment of the setting are known only once it is made.
     *
     * @throws Exception when Kafka did not acknowledge within the publish timeout; Redis holds the new stock, and
     *     setting it again is what makes it durable
     */
    void set(long productId, long available) throws Exception {
        QueueKeys keys = this.keyspace.product(productId);
        Long booked = this.redis.execute(SET_STOCK, List.of(keys.stock(), keys.stats()), Long.toString(available));
        StockSet setting = new StockSet(productId, available, booked == null ? 0 : booked);
        this.stock.send(StockSet.key(productId), setting);
    }
}
