package io.queuegate.gate;

import java.util.Optional;

import io.queuegate.core.queue.Keyspace;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Reads the bookings the gate records beside each product's stock. */
public class BookingLookup {

    private final StringRedisTemplate redis;

    private final JsonMapper json;

    private final Keyspace keyspace;

    public BookingLookup(StringRedisTemplate redis, JsonMapper json) {
        this(redis, json, Keyspace.DEFAULT);
    }

    /** @param keyspace the queue's key names ({@code queuegate.redis.key-prefix}) */
    public BookingLookup(StringRedisTemplate redis, JsonMapper json, Keyspace keyspace) {
        this.redis = redis;
        this.json = json;
        this.keyspace = keyspace;
    }

    /** Finds a booking by id; ids carry their product, so the lookup stays in the product's slot. */
    public Optional<BookingRecord> find(String bookingId) {
        int dash = bookingId == null ? -1 : bookingId.indexOf('-');
        if (dash <= 0) {
            return Optional.empty();
        }
        long productId;
        try {
            productId = Long.parseLong(bookingId.substring(0, dash));
        }
        catch (NumberFormatException ex) {
            return Optional.empty();
        }
        Object record = this.redis.opsForHash().get(this.keyspace.product(productId).bookings(), bookingId);
        return Optional.ofNullable(record).map(value -> this.json.readValue(value.toString(), BookingRecord.class));
    }
}
