package io.queuegate.gate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.queuegate.web.ApiException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The step after a reservation when {@code queuegate.gate.replica-acks} asks for it: the reservation stands once as
 * many replicas hold it; without them it is undone and the booking answered 503, as a failover to a replica that
 * lacks it would give the token and the stock back. WAIT counts every write sent before it on the connection, and the
 * reserving script went on the same one.
 */
final class ReplicaAcks {

    /** How much longer than WAIT's own timeout its answer may take to arrive. */
    private static final long WAIT_GRACE_MS = 1_000;

    private final StringRedisTemplate redis;

    private final GateProperties properties;

    private final ReservationScripts scripts;

    private final ReservationUndo undo;

    ReplicaAcks(StringRedisTemplate redis, GateProperties properties, ReservationScripts scripts,
            ReservationUndo undo) {
        if (properties.replicaAcks() > 0 && redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce
                && lettuce.isClusterAware()) {
            // WAIT would go to whichever node the client picks, not the one that ran the product's script
            throw new IllegalStateException("queuegate.gate.replica-acks needs one Redis or a Sentinel-managed one, "
                    + "not a Redis Cluster");
        }
        this.redis = redis;
        this.properties = properties;
        this.scripts = scripts;
        this.undo = undo;
    }

    /** The reservation, once enough replicas hold it (at once when none are asked for). */
    Reservation replicated(Reservation reservation) {
        int wanted = this.properties.replicaAcks();
        if (wanted == 0) {
            return reservation;
        }
        Long acknowledged;
        try {
            acknowledged = this.redis.execute((RedisCallback<Long>) connection -> acknowledging(connection, wanted));
        }
        catch (DataAccessException ex) {
            // the reservation was made: undone once Redis answers, as for a failed reserving step
            this.undo.undoWhenReachable(reservation.productId(), reservation.bookingId(), reservation.userId(),
                    reservation.token(), reservation.quantity());
            throw ex;
        }
        if (acknowledged == null || acknowledged < wanted) {
            this.scripts.release(reservation);
            throw ApiException.unavailable("The booking could not be copied to a Redis replica in time; try again "
                    + "after Retry-After.", Duration.ofSeconds(1));
        }
        return reservation;
    }

    /** {@code WAIT} on the client's own connection, the one the reserving step went on: how many replicas have it. */
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
}
