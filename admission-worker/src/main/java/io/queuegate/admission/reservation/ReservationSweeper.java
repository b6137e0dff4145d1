package io.queuegate.admission.reservation;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.PeriodicTask;
import io.queuegate.admission.admit.QueueShare;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.QueueStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Settles the reservations a booking service left behind. The gate reserves (the token consumed, the stock taken)
 * before the booking is published, and its caller confirms once Kafka holds it or releases it when Kafka does not; a
 * service killed in between, or while it chased an unknown outcome, would leave the reservation forever: the
 * buyer's retry refused, the units neither sold nor for sale. Every reservation is dated in {@code reserved-at:{p}};
 * one older than the publish timeout and a margin ({@link ReservationSweepProperties}) is settled here, confirmed
 * when its booking is in the bookings topic and released when it is not.
 *
 * <p>Why the topic is read here, once a reservation is old enough, rather than followed by a consumer that confirms
 * as bookings arrive: a consumer's lag would have to be proven zero before anything it had not seen could be
 * released. The read begins after the deadline, and a booking service publishes within the publish timeout of its
 * reservation, so the end it reads to holds every booking that will ever stand for it. The confirm and the release
 * are one atomic script each, as the booking service's own confirm is: whichever takes the reservation's mark first
 * settles it, and a booking that still reaches the topic after a release is undone by the RESTORED change the release
 * writes (see docs/DESIGN.md).
 *
 * <p>Each worker sweeps the queues it runs ({@link QueueShare}), under a lease of its own per product, so two workers
 * never read the log for the same reservations. Counts each settled reservation
 * ({@code queuegate.reservations.settled}, tagged {@code outcome} confirmed or released).
 */
@Component
public class ReservationSweeper extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(ReservationSweeper.class);

    private static final RedisScript<Long> HOLD_LEASE = QueueScripts.of("hold_lease", Long.class);

    private static final RedisScript<String> SETTLE_RESERVATION = QueueScripts.of("settle_reservation", String.class);

    private final StringRedisTemplate redis;

    private final QueueStore queues;

    private final QueueShare share;

    private final Keyspace keyspace;

    private final BookingsLog bookings;

    private final ReservationSweepProperties properties;

    private final String workerId = UUID.randomUUID().toString();

    private final Counter confirmed;

    private final Counter released;

    ReservationSweeper(StringRedisTemplate redis, QueueStore queues, QueueShare share, Keyspace keyspace,
            BookingsLog bookings, ReservationSweepProperties properties, MeterRegistry metrics) {
        super("reservation-sweeper", properties.interval());
        this.redis = redis;
        this.queues = queues;
        this.share = share;
        this.keyspace = keyspace;
        this.bookings = bookings;
        this.properties = properties;
        this.confirmed = settled(metrics, "confirmed");
        this.released = settled(metrics, "released");
    }

    private static Counter settled(MeterRegistry metrics, String outcome) {
        return Counter.builder("queuegate.reservations.settled")
            .description("Reservations a booking service left unconfirmed, settled by the sweeper")
            .tag("outcome", outcome)
            .register(metrics);
    }

    @Override
    public boolean isAutoStartup() {
        return this.properties.enabled();
    }

    @Override
    protected void runOnce() {
        try {
            for (long productId : this.queues.productIds()) {
                if (this.share.owns(productId)) {
                    sweep(productId);
                }
            }
        }
        catch (RuntimeException ex) {
            log.warn("reservation sweep paused, the next round tries again: {}", ex.toString());
        }
    }

    /** Settles the product's overdue reservations, by Redis' clock, if this worker holds its sweep's lease. */
    public Settled sweep(long productId) {
        QueueKeys keys = this.keyspace.product(productId);
        long leaseMs = this.properties.interval().toMillis() * 10;
        Long held = this.redis.execute(HOLD_LEASE, List.of(keys.reservationLease()), this.workerId,
                Long.toString(leaseMs));
        if (held == null || held == 0) {
            return Settled.NONE;
        }
        return settle(productId, redisTime());
    }

    /**
     * Settles the product's reservations made before {@code nowMillis} minus the publish timeout and the margin, the
     * oldest first, at most {@code batch}: the log is read only after that deadline, so to its end it holds every
     * booking that will stand for them.
     */
    public Settled settle(long productId, long nowMillis) {
        QueueKeys keys = this.keyspace.product(productId);
        long deadline = nowMillis - this.properties.settleAfter().toMillis();
        Set<TypedTuple<String>> overdue = this.redis.opsForZSet()
            .rangeByScoreWithScores(keys.reservedAt(), Double.NEGATIVE_INFINITY, deadline, 0,
                    this.properties.batch());
        if (overdue == null || overdue.isEmpty()) {
            return Settled.NONE;
        }
        long oldest = overdue.stream().mapToLong(reservation -> reservation.getScore().longValue()).min().orElseThrow();
        Set<String> stored = this.bookings.bookingIds(productId, oldest - this.properties.lookback().toMillis());
        List<String> gateKeys = List.of(keys.entry(), keys.stock(), keys.bookings(), keys.stats(), keys.audit(),
                keys.reservations(), keys.gone(), keys.reservedAt());
        List<String> confirmedIds = new ArrayList<>();
        List<String> releasedIds = new ArrayList<>();
        for (TypedTuple<String> reservation : overdue) {
            String bookingId = reservation.getValue();
            String outcome = this.redis.execute(SETTLE_RESERVATION, gateKeys, bookingId,
                    stored.contains(bookingId) ? "CONFIRM" : "RELEASE");
            if ("CONFIRMED".equals(outcome)) {
                confirmedIds.add(bookingId);
            }
            else if ("RELEASED".equals(outcome)) {
                releasedIds.add(bookingId);
            }
        }
        this.confirmed.increment(confirmedIds.size());
        this.released.increment(releasedIds.size());
        if (!releasedIds.isEmpty() || !confirmedIds.isEmpty()) {
            log.warn("product {}: settled {} reservations left unconfirmed by their booking service: {} confirmed (in "
                    + "the bookings topic), {} released (not in it)", productId, overdue.size(), confirmedIds.size(),
                    releasedIds.size());
        }
        return new Settled(confirmedIds, releasedIds);
    }

    private long redisTime() {
        Long now = this.redis.execute((RedisCallback<Long>) (RedisConnection connection) -> connection
            .serverCommands()
            .time(TimeUnit.MILLISECONDS));
        if (now == null) {
            throw new IllegalStateException("Redis did not tell its time");
        }
        return now;
    }

    /** What one round settled for one product, by booking id. */
    public record Settled(List<String> confirmed, List<String> released) {

        /** Nothing settled. */
        public static final Settled NONE = new Settled(List.of(), List.of());
    }
}
