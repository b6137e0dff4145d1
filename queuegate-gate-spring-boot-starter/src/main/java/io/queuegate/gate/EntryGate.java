package io.queuegate.gate;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.token.EntryToken;
import io.queuegate.core.token.TokenCodec;
import tools.jackson.databind.json.JsonMapper;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The booking counter's gate: one call lets an admitted user through exactly once.
 *
 * <pre>{@code
 * Reservation reservation = gate.reserve(productId, token, quantity);
 * }</pre>
 *
 * {@link #reserve} checks the token's signature without Redis, then runs one script that checks the entry and
 * the stock, consumes the token, takes the stock and records the booking, all or nothing. It fails closed:
 * anything but a proven admission is refused.
 */
public class EntryGate {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> CONSUME_ENTRY = QueueScripts.of("consume_entry", List.class);

    private static final RedisScript<Long> RELEASE_RESERVATION = QueueScripts.of("release_reservation", Long.class);

    /** How long an unknown outcome is chased before it is left to an operator (logged). */
    private static final Duration UNDO_PATIENCE = Duration.ofMinutes(10);

    private static final Logger log = LoggerFactory.getLogger(EntryGate.class);

    private final StringRedisTemplate redis;

    private final TokenCodec tokens;

    private final JsonMapper json;

    private final GateProperties properties;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties) {
        this(redis, tokens, json, properties, new ScriptTimer(Metrics.globalRegistry));
    }

    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer) {
        this(redis, tokens, json, properties, timer, Keyspace.DEFAULT);
    }

    /** @param keyspace the queue's key names: the gate must use the queue's {@code queuegate.redis.key-prefix} */
    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer, Keyspace keyspace) {
        this.redis = redis;
        this.tokens = tokens;
        this.json = json;
        this.properties = properties;
        this.timer = timer;
        this.keyspace = keyspace;
    }

    /**
     * Consumes an admitted token and reserves {@code quantity} units.
     * @throws GateRejectedException 403 {@code token_not_admitted} or 409 {@code sold_out}
     * @throws IllegalArgumentException for a quantity outside 1..maxQuantity (check it before calling)
     */
    public Reservation reserve(long productId, String token, int quantity) {
        return reserve(productId, token, quantity, ScriptTime.REDIS_TIME);
    }

    Reservation reserve(long productId, String token, int quantity, long nowMillis) {
        if (quantity < 1 || quantity > this.properties.maxQuantity()) {
            throw new IllegalArgumentException("quantity must be 1.." + this.properties.maxQuantity());
        }
        EntryToken entry = this.tokens.verify(token)
            .filter(verified -> verified.productId() == productId)
            .orElseThrow(GateRejectedException::notAdmitted);
        String bookingId = productId + "-" + UUID.randomUUID();
        long bookedAt = System.currentTimeMillis();
        String record = this.json.writeValueAsString(
                new BookingRecord(bookingId, productId, entry.userId(), quantity, bookedAt));
        QueueKeys keys = this.keyspace.product(productId);
        List<?> reply;
        try {
            reply = this.timer.time("consume_entry", () -> this.redis.execute(CONSUME_ENTRY,
                gateKeys(keys), entry.userId(), Integer.toString(quantity), Long.toString(nowMillis), bookingId,
                record));
        }
        catch (DataAccessException ex) {
            // A timeout does not mean the script did not run: Redis may run it once it answers again. The caller
            // is told to retry, so a reservation made after all is undone as soon as Redis can say it exists.
            undoWhenReachable(productId, bookingId, entry.userId(), token, quantity);
            throw ex;
        }
        String outcome = reply == null || reply.isEmpty() ? "NOT_ADMITTED" : reply.getFirst().toString();
        return switch (outcome) {
            case "RESERVED" -> new Reservation(bookingId, productId, entry.userId(), quantity, token,
                    Long.parseLong(reply.get(1).toString()), bookedAt);
            case "SOLD_OUT" -> throw GateRejectedException.soldOut(Long.parseLong(reply.get(1).toString()));
            default -> throw GateRejectedException.notAdmitted();
        };
    }

    /** Marks a reservation durable (its booking was published): from now on it is never undone. */
    public void confirm(Reservation reservation) {
        this.redis.opsForHash()
            .delete(this.keyspace.product(reservation.productId()).reservations(), reservation.bookingId());
    }

    /**
     * Undoes, once Redis answers, a reservation whose outcome a failed call left unknown. Commands on the shared
     * connection are answered in order, so when the lookup answers, a queued reservation script has run.
     */
    private void undoWhenReachable(long productId, String bookingId, String userId, String token, int quantity) {
        Thread.ofVirtual().name("gate-undo-" + bookingId).start(() -> {
            long pauseMs = 200;
            for (long deadline = System.nanoTime() + UNDO_PATIENCE.toNanos(); System.nanoTime() < deadline; ) {
                try {
                    Object expiresAt = this.redis.opsForHash()
                        .get(this.keyspace.product(productId).reservations(), bookingId);
                    if (expiresAt != null) {
                        release(new Reservation(bookingId, productId, userId, quantity, token,
                                Long.parseLong(expiresAt.toString()), 0));
                        log.info("undid reservation {} whose caller was told to retry", bookingId);
                    }
                    return;
                }
                catch (DataAccessException ex) {
                    try {
                        Thread.sleep(pauseMs);
                    }
                    catch (InterruptedException interrupted) {
                        return;
                    }
                    // at most 1 s: the caller was told to retry after about that long, and a retry that comes
                    // before the undo finds the token consumed (403); a 5 s cap lost that race in the fault runs
                    pauseMs = Math.min(1_000, pauseMs * 2);
                }
            }
            log.error("reservation {} of product {} may stand unconfirmed: Redis did not answer for {}", bookingId,
                    productId, UNDO_PATIENCE);
        });
    }

    /** Gives back the stock and the token of a reservation that could not be confirmed. Safe to repeat. */
    public boolean release(Reservation reservation) {
        QueueKeys keys = this.keyspace.product(reservation.productId());
        Long released = this.timer.time("release_reservation", () -> this.redis.execute(RELEASE_RESERVATION,
                gateKeys(keys), reservation.userId(),
                Integer.toString(reservation.quantity()), Long.toString(reservation.entryExpiresAt()),
                reservation.bookingId()));
        return released != null && released > 0;
    }

    /** The keys both gate scripts take, in their KEYS order. */
    private static List<String> gateKeys(QueueKeys keys) {
        return List.of(keys.entry(), keys.stock(), keys.bookings(), keys.stats(), keys.audit(), keys.reservations(),
                keys.gone());
    }

    /** Sets the units left to sell. */
    public void setStock(long productId, long available) {
        this.redis.opsForValue().set(this.keyspace.product(productId).stock(), Long.toString(available));
    }

    public long stock(long productId) {
        String value = this.redis.opsForValue().get(this.keyspace.product(productId).stock());
        return value == null ? 0 : Long.parseLong(value);
    }

    /** Finds a booking by id; ids carry their product, so the lookup stays in the product's slot. */
    public Optional<BookingRecord> findBooking(String bookingId) {
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
