package io.queuegate.gate;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
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
 * Each step has a class of its own: {@link #reserve} verifies the token without Redis ({@link AdmittedTokens}), then
 * runs one script that checks the admission and the stock, consumes the token, takes the stock and records the
 * booking, all or nothing ({@link ReservationScripts}, {@code consume_admission.lua}), and waits for replicas when
 * asked ({@link ReplicaAcks}); {@link #confirm} and {@link #release} run their scripts; an unknown outcome is chased
 * by {@link ReservationUndo}. It fails closed: anything but a proven admission is refused. Stock is set with
 * {@link StockLedger}, bookings are read with {@link BookingLookup}.
 */
public class AdmissionGate {

    private final JsonMapper json;

    private final GateProperties properties;

    private final AdmittedTokens admitted;

    private final ReservationScripts scripts;

    private final ReservationUndo undo;

    private final ReplicaAcks replicas;

    public AdmissionGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer) {
        this(redis, tokens, json, properties, timer, Keyspace.DEFAULT);
    }

    /** @param keyspace the queue's key names: the gate must use the queue's {@code queuegate.redis.key-prefix} */
    public AdmissionGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer, Keyspace keyspace) {
        this(redis, tokens, json, properties, timer, keyspace, null);
    }

    /**
     * @param tokens verifies entry tokens; null for a gate without the queue's secret, which takes admissions alone
     * @param admissions verifies admissions (JWS) by the queue's published keys; null to take entry tokens alone
     */
    public AdmissionGate(StringRedisTemplate redis, TokenCodec tokens, JsonMapper json, GateProperties properties,
            ScriptTimer timer, Keyspace keyspace, AdmissionVerifier admissions) {
        this.json = json;
        this.properties = properties;
        this.admitted = new AdmittedTokens(tokens, admissions);
        this.scripts = new ReservationScripts(redis, timer, keyspace, properties.auditBacklogLimit());
        this.undo = new ReservationUndo(this.scripts);
        this.replicas = new ReplicaAcks(redis, properties, this.scripts, this.undo);
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
        Token verified = this.admitted.verify(productId, token);
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
            case "RESERVED" -> this.replicas.replicated(new Reservation(bookingId, productId, verified.userId(),
                    quantity, verified.value(), Long.parseLong(reply.get(1).toString()), bookedAt));
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
     * Marks a reservation durable (its booking was published): from now on it is never undone. One left unconfirmed
     * past the publish timeout and a margin is settled by the admission worker's sweeper instead; exactly one of the
     * two settles it ({@code confirm_reservation.lua}).
     *
     * @return true when the booking stands; false when the sweeper released the reservation first (its booking, if
     *     published, is undone by the RESTORED change naming it): tell the buyer it was not booked
     */
    public boolean confirm(Reservation reservation) {
        return this.scripts.confirm(reservation);
    }

    /** Gives back the stock and the token of a reservation that could not be confirmed. Safe to repeat. */
    public boolean release(Reservation reservation) {
        return this.scripts.release(reservation);
    }
}
