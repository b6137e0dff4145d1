package io.queuegate.gate;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The booking counter's gate: one call lets an admitted user through exactly once.
 *
 * <pre>{@code
 * Reservation reservation = gate.reserve(productId, token, quantity);
 * // make the booking durable, then
 * gate.confirm(reservation);   // or, if that failed, gate.release(reservation)
 * }</pre>
 *
 * {@link #reserve} checks the token's signature without Redis, then runs one script that checks the entry and
 * the stock, consumes the token, takes the stock and records the booking, all or nothing. It fails closed:
 * anything but a proven admission is refused. Stock is set with {@link StockLedger}, bookings are read with
 * {@link BookingLookup}.
 */
public class EntryGate {

    /** How much longer than WAIT's own timeout its answer may take to arrive. */
    private static final long WAIT_GRACE_MS = 1_000;

    private final StringRedisTemplate redis;

    private final TokenCodec tokens;

    private final JsonMapper json;

    private final GateProperties properties;

    private final ReservationScripts scripts;

    private final ReservationUndo undo;

    private final Keyspace keyspace;

    /** Null unless {@code queuegate.gate.jwks-uri} is set. */
    private final AdmissionVerifier admissions;

    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer) {
        this(redis, tokens, json, properties, timer, Keyspace.DEFAULT);
    }

    /** @param keyspace the queue's key names: the gate must use the queue's {@code queuegate.redis.key-prefix} */
    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer, Keyspace keyspace) {
        this(redis, tokens, json, properties, timer, keyspace, null);
    }

    /**
     * @param tokens verifies entry tokens; null for a gate without the queue's secret, which takes admissions alone
     * @param admissions verifies admissions (JWS) by the queue's published keys; null to take entry tokens alone
     */
    public EntryGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer, Keyspace keyspace, AdmissionVerifier admissions) {
        if (properties.replicaAcks() > 0 && redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce
                && lettuce.isClusterAware()) {
            // WAIT would go to whichever node the client picks, not the one that ran the product's script
            throw new IllegalStateException("queuegate.gate.replica-acks needs one Redis or a Sentinel-managed one, "
                    + "not a Redis Cluster");
        }
        this.admissions = admissions;
        this.redis = redis;
        this.tokens = tokens;
        this.json = json;
        this.properties = properties;
        this.keyspace = keyspace;
        this.scripts = new ReservationScripts(redis, timer, keyspace, properties.auditBacklogLimit());
        this.undo = new ReservationUndo(this.scripts);
    }

    /**
     * Consumes an admitted token and reserves {@code quantity} units.
     * @throws GateRejectedException 403 {@code token_not_admitted} or 409 {@code sold_out}
     * @throws ApiException 503 {@code unavailable} while the sale is restored after a Redis restart, or while the
     *         product's audit stream is at {@code queuegate.gate.audit-backlog-limit}
     * @throws IllegalArgumentException for a quantity outside 1..maxQuantity (check it before calling)
     */
    public Reservation reserve(long productId, String token, int quantity) {
        return reserve(productId, token, quantity, ScriptTime.REDIS_TIME);
    }

    Reservation reserve(long productId, String token, int quantity, long nowMillis) {
        if (quantity < 1 || quantity > this.properties.maxQuantity()) {
            throw new IllegalArgumentException("quantity must be 1.." + this.properties.maxQuantity());
        }
        Token verified = admitted(productId, token);
        String bookingId = productId + "-" + UUID.randomUUID();
        long bookedAt = System.currentTimeMillis();
        String record = this.json.writeValueAsString(
                new BookingRecord(bookingId, productId, verified.userId(), quantity, bookedAt));
        List<?> reply;
        try {
            reply = this.scripts.consume(productId, verified.userId(), quantity, nowMillis, bookingId, record);
        }
        catch (DataAccessException ex) {
            // A timeout does not mean the script did not run: Redis may run it once it answers again. The caller
            // is told to retry, so a reservation made after all is undone as soon as Redis can say it exists.
            this.undo.undoWhenReachable(productId, bookingId, verified.userId(), verified.value(), quantity);
            throw ex;
        }
        String outcome = reply == null || reply.isEmpty() ? "NOT_ADMITTED" : reply.getFirst().toString();
        return switch (outcome) {
            case "RESERVED" -> replicated(new Reservation(bookingId, productId, verified.userId(), quantity,
                    verified.value(), Long.parseLong(reply.get(1).toString()), bookedAt));
            case "SOLD_OUT" -> throw GateRejectedException.soldOut(Long.parseLong(reply.get(1).toString()));
            // Redis restarted and may have lost its last bookings: nothing is taken until the sale is restored
            case "RESTORING" -> throw ApiException.unavailable("The sale is being restored after a Redis restart; "
                    + "try again after Retry-After.", Duration.ofSeconds(1));
            // the audit stream is at its bound (Kafka or the relay away): nothing is taken, nothing dropped
            case "AUDIT_BACKLOG" -> throw ApiException.unavailable("Bookings of this product wait for its audit "
                    + "trail to reach Kafka; try again after Retry-After.", Duration.ofSeconds(5));
            default -> throw GateRejectedException.notAdmitted();
        };
    }

    /**
     * The reservation, once as many replicas as {@code queuegate.gate.replica-acks} asks hold it; without them it is
     * undone and the booking answered 503, as a failover to a replica that lacks it would give the token and the
     * stock back. WAIT counts every write sent before it on the connection, and the script went on the same one.
     */
    private Reservation replicated(Reservation reservation) {
        int wanted = this.properties.replicaAcks();
        if (wanted == 0) {
            return reservation;
        }
        Long acknowledged;
        try {
            acknowledged = this.redis.execute((RedisCallback<Long>) connection -> acknowledging(connection, wanted));
        }
        catch (DataAccessException ex) {
            // the reservation was made: undone once Redis answers, as for a failed consume step
            this.undo.undoWhenReachable(reservation.productId(), reservation.bookingId(), reservation.userId(),
                    reservation.token(), reservation.quantity());
            throw ex;
        }
        if (acknowledged == null || acknowledged < wanted) {
            release(reservation);
            throw ApiException.unavailable("The booking could not be copied to a Redis replica in time; try again "
                    + "after Retry-After.", Duration.ofSeconds(1));
        }
        return reservation;
    }

    /** {@code WAIT} on the client's own connection, the one the consume step went on: how many replicas have it. */
    @SuppressWarnings("unchecked")
    private Long acknowledging(RedisConnection connection, int wanted) {
        long timeout = this.properties.replicaAckTimeout().toMillis();
        try {
            return LettuceFutures.awaitOrCancel(((BaseRedisAsyncCommands<byte[], byte[]>) connection
                .getNativeConnection()).waitForReplication(wanted, timeout), timeout + WAIT_GRACE_MS,
                    TimeUnit.MILLISECONDS);
        }
        catch (RedisException ex) {
            throw new RedisSystemException("WAIT for " + wanted + " replicas failed", ex);
        }
    }

    /**
     * The token's content: an entry token this deployment issued, or, with {@code queuegate.gate.jwks-uri} set, an
     * admission (a JWS, told apart by its dots, which a token never has) verified by the published keys. Either way
     * the script below still checks the entry itself: an admission revoked or used since it was signed is refused.
     */
    private Token admitted(long productId, String token) {
        if (this.admissions != null && token != null && token.indexOf('.') > 0) {
            return this.admissions.verify(token, productId)
                .map((admission) -> new Token(productId, admission.userId(), admission.token()))
                .orElseThrow(GateRejectedException::notAdmitted);
        }
        if (this.tokens == null) {
            // a gate that knows only the published keys takes admissions alone
            throw GateRejectedException.notAdmitted();
        }
        return this.tokens.verify(token, productId).orElseThrow(GateRejectedException::notAdmitted);
    }

    /** Marks a reservation durable (its booking was published): from now on it is never undone. */
    public void confirm(Reservation reservation) {
        this.redis.opsForHash()
            .delete(this.keyspace.product(reservation.productId()).reservations(), reservation.bookingId());
    }

    /** Gives back the stock and the token of a reservation that could not be confirmed. Safe to repeat. */
    public boolean release(Reservation reservation) {
        return this.scripts.release(reservation);
    }
}
