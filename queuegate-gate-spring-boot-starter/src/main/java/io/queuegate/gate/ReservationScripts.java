package io.queuegate.gate;

import java.util.List;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.ScriptTimer;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the gate's scripts and reads what they left. Reserving and releasing take the same keys in the same order;
 * confirming takes the reservation's marks and its booking record.
 */
class ReservationScripts {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> CONSUME_ADMISSION = QueueScripts.of("consume_admission", List.class);

    private static final RedisScript<Long> RELEASE_RESERVATION = QueueScripts.of("release_reservation", Long.class);

    private static final RedisScript<Long> CONFIRM_RESERVATION = QueueScripts.of("confirm_reservation", Long.class);

    private final StringRedisTemplate redis;

    private final ScriptTimer timer;

    private final Keyspace keyspace;

    private final long auditBacklogLimit;

    ReservationScripts(StringRedisTemplate redis, ScriptTimer timer, Keyspace keyspace, long auditBacklogLimit) {
        this.redis = redis;
        this.timer = timer;
        this.keyspace = keyspace;
        this.auditBacklogLimit = auditBacklogLimit;
    }

    /**
     * {@code consume_admission.lua}: its raw reply, {@code RESERVED}, {@code SOLD_OUT}, {@code NOT_ADMITTED},
     * {@code RESTORING} or {@code AUDIT_BACKLOG}.
     */
    List<?> consume(long productId, String userId, int quantity, long nowMillis, String bookingId, String record) {
        return this.timer.time("consume_admission", () -> this.redis.execute(CONSUME_ADMISSION, keys(productId), userId,
                Integer.toString(quantity), Long.toString(nowMillis), bookingId, record,
                Long.toString(this.auditBacklogLimit)));
    }

    /** {@code release_reservation.lua}: true when this call undid the reservation. */
    boolean release(Reservation reservation) {
        Long released = this.timer.time("release_reservation", () -> this.redis.execute(RELEASE_RESERVATION,
                keys(reservation.productId()), reservation.userId(), Integer.toString(reservation.quantity()),
                Long.toString(reservation.entryExpiresAt()), reservation.bookingId()));
        return released != null && released > 0;
    }

    /**
     * {@code confirm_reservation.lua}: true when the booking stands, false when the reservation was released first
     * (by the admission worker's sweeper, which took it for stranded).
     */
    boolean confirm(Reservation reservation) {
        QueueKeys keys = this.keyspace.product(reservation.productId());
        Long stands = this.timer.time("confirm_reservation", () -> this.redis.execute(CONFIRM_RESERVATION,
                List.of(keys.bookings(), keys.reservations(), keys.reservedAt()), reservation.bookingId()));
        return stands != null && stands > 0;
    }

    /** A reservation's entry expiry as {@code consume_admission.lua} stored it; null when none stands under the id. */
    Long reservedUntil(long productId, String bookingId) {
        Object expiresAt = this.redis.opsForHash().get(this.keyspace.product(productId).reservations(), bookingId);
        return expiresAt == null ? null : Long.valueOf(expiresAt.toString());
    }

    /** The keys the reserving and releasing scripts take, in their KEYS order. */
    private List<String> keys(long productId) {
        QueueKeys keys = this.keyspace.product(productId);
        return List.of(keys.entry(), keys.stock(), keys.bookings(), keys.stats(), keys.audit(), keys.reservations(),
                keys.gone(), keys.reservedAt());
    }
}
