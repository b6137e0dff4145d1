package io.queuegate.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.admission.reservation.ReservationSweepProperties;
import io.queuegate.admission.reservation.ReservationSweeper;
import io.queuegate.admission.reservation.ReservationSweeper.Settled;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.gate.AdmissionGate;
import io.queuegate.gate.GateProperties;
import io.queuegate.gate.GateRejectedException;
import io.queuegate.gate.Reservation;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sweeper settles what a booking service left behind, against the real Redis and the embedded broker:
 * reservations made by the gate's own script, bookings published to the bookings topic as booking-service does. A
 * reservation whose booking never reached the topic is released once past the deadline (token usable, stock back,
 * audited); one whose booking is there is confirmed; and a booking service confirming late never wins alongside it.
 */
class ReservationSweeperTests extends WorkerTestSupport {

    private static final int STOCK = 100;

    @Autowired
    ReservationSweeper sweeper;

    @Autowired
    ReservationSweepProperties settings;

    @Autowired
    TokenCodec codec;

    @Autowired
    MeterRegistry metrics;

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    private AdmissionGate gate;

    private KafkaProducer<String, String> producer;

    private long product;

    private QueueKeys keys;

    @BeforeEach
    void gateAndStock() {
        this.gate = new AdmissionGate(this.redis, this.codec, JsonMapper.shared(),
                new GateProperties(4, null, 0, Duration.ofMillis(100), 200_000),
                new ScriptTimer(new SimpleMeterRegistry()));
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        this.product = newProduct();
        this.keys = QueueKeys.of(this.product);
        this.redis.opsForValue().set(this.keys.stock(), Integer.toString(STOCK));
    }

    @AfterEach
    void closeProducer() {
        this.producer.close();
    }

    @Test
    void aReservationWhoseBookingNeverReachedKafkaIsReleasedAfterTheDeadline() {
        String token = admitted("crashed-before-publish");
        Reservation reservation = this.gate.reserve(this.product, token, 2);
        long reservedAt = reservedAt(reservation);
        long deadline = reservedAt + this.settings.settleAfter().toMillis();
        double releasedBefore = settledCount("released");

        assertThat(this.sweeper.settle(this.product, deadline - 1)).as("left to its booking service until the deadline")
            .isEqualTo(Settled.NONE);
        assertThat(stock()).isEqualTo(STOCK - 2);
        assertThat(this.redis.opsForHash().hasKey(this.keys.reservations(), reservation.bookingId())).isTrue();

        Settled settled = this.sweeper.settle(this.product, deadline);

        assertThat(settled.released()).containsExactly(reservation.bookingId());
        assertThat(settled.confirmed()).isEmpty();
        assertThat(stock()).as("the stock is back").isEqualTo(STOCK);
        assertThat(this.redis.opsForHash().size(this.keys.reservations())).isZero();
        assertThat(this.redis.opsForZSet().size(this.keys.reservedAt())).isZero();
        assertThat(this.redis.opsForHash().size(this.keys.bookings())).isZero();
        assertThat(restoredBookings()).as("audited as the gate's own release is").containsExactly(reservation.bookingId());
        assertThat(settledCount("released") - releasedBefore).isEqualTo(1);
        assertThat(this.sweeper.settle(this.product, deadline + 60_000)).as("settled once").isEqualTo(Settled.NONE);
        // the booking service comes back too late: its confirm loses, and it must not tell the buyer booked
        assertThat(this.gate.confirm(reservation)).isFalse();

        Reservation retried = this.gate.reserve(this.product, token, 2);
        assertThat(retried.userId()).as("the token is usable again").isEqualTo("crashed-before-publish");
        assertThat(stock()).isEqualTo(STOCK - 2);
    }

    @Test
    void aReservationWhoseBookingIsInTheTopicIsConfirmedAndNotReleased() throws Exception {
        String token = admitted("crashed-before-confirm");
        Reservation reservation = this.gate.reserve(this.product, token, 1);
        publish(reservation);
        double confirmedBefore = settledCount("confirmed");

        Settled settled = this.sweeper.settle(this.product,
                reservedAt(reservation) + this.settings.settleAfter().toMillis());

        assertThat(settled.confirmed()).containsExactly(reservation.bookingId());
        assertThat(settled.released()).isEmpty();
        assertThat(stock()).as("sold").isEqualTo(STOCK - 1);
        assertThat(this.redis.opsForHash().hasKey(this.keys.bookings(), reservation.bookingId())).isTrue();
        assertThat(this.redis.opsForHash().size(this.keys.reservations())).isZero();
        assertThat(this.redis.opsForZSet().size(this.keys.reservedAt())).isZero();
        assertThat(restoredBookings()).isEmpty();
        assertThat(settledCount("confirmed") - confirmedBefore).isEqualTo(1);
        assertThat(this.gate.confirm(reservation)).as("a late confirm finds the booking standing").isTrue();
        assertThat(this.gate.release(reservation)).as("a confirmed booking is never released").isFalse();
        assertThat(stock()).isEqualTo(STOCK - 1);
        assertThatThrownBy(() -> this.gate.reserve(this.product, token, 1)).as("the token stays used")
            .isInstanceOf(GateRejectedException.class);
    }

    @Test
    void aReservationNotYetOverdueIsLeftAloneByTheRound() {
        Reservation reservation = this.gate.reserve(this.product, admitted("still-publishing"), 1);

        assertThat(this.sweeper.sweep(this.product)).isEqualTo(Settled.NONE);

        assertThat(this.redis.opsForHash().hasKey(this.keys.reservations(), reservation.bookingId())).isTrue();
        assertThat(this.gate.confirm(reservation)).isTrue();
    }

    /**
     * Booking services that publish and confirm late, while the sweeper settles the same overdue reservations over
     * and over: each reservation is settled exactly once, either way, and what stands is what the buyers were told.
     */
    @Test
    void aLateBookingAndTheSweeperNeverBothWin() throws Exception {
        int buyers = 40;
        List<Reservation> reservations = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            reservations.add(this.gate.reserve(this.product, admitted("late-" + i), 1));
        }
        long overdue = reservations.stream().mapToLong(this::reservedAt).max().orElseThrow()
                + this.settings.settleAfter().toMillis();
        Set<String> releasedBySweeper = ConcurrentHashMap.newKeySet();
        Set<String> confirmedBySweeper = ConcurrentHashMap.newKeySet();
        Map<String, Boolean> toldBooked = new ConcurrentHashMap<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> late = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                Reservation reservation = reservations.get(i);
                long pauseMs = i % 20 * 75L;
                late.add(pool.submit(() -> {
                    start.await();
                    Thread.sleep(pauseMs); // spreads the late publishes over the sweeper's rounds
                    publish(reservation);
                    toldBooked.put(reservation.bookingId(), this.gate.confirm(reservation));
                    return null;
                }));
            }
            Future<?> sweeping = pool.submit(() -> {
                start.await();
                while (toldBooked.size() < buyers) {
                    Settled settled = this.sweeper.settle(this.product, overdue);
                    releasedBySweeper.addAll(settled.released());
                    confirmedBySweeper.addAll(settled.confirmed());
                }
                return null;
            });
            start.countDown();
            for (Future<?> f : late) {
                f.get(60, TimeUnit.SECONDS);
            }
            sweeping.get(60, TimeUnit.SECONDS);
        }

        Set<String> booked = new HashSet<>();
        toldBooked.forEach((bookingId, stands) -> {
            if (stands) {
                booked.add(bookingId);
            }
        });
        assertThat(toldBooked).hasSize(buyers);
        assertThat(booked).as("bookings that won the race").isNotEmpty();
        assertThat(releasedBySweeper).as("reservations the sweeper won").isNotEmpty();
        assertThat(booked).as("told booked and released").doesNotContainAnyElementsOf(releasedBySweeper);
        assertThat(booked.size() + releasedBySweeper.size()).as("each settled exactly one way").isEqualTo(buyers);
        assertThat(booked).as("confirmed by the sweeper").containsAll(confirmedBySweeper);
        assertThat(this.redis.opsForHash().keys(this.keys.bookings())).as("the bookings that stand")
            .containsExactlyInAnyOrderElementsOf(booked);
        assertThat(stock()).isEqualTo(STOCK - booked.size());
        assertThat(restoredBookings()).as("every release names its booking, which the log holds too")
            .containsExactlyInAnyOrderElementsOf(releasedBySweeper);
        for (Reservation reservation : reservations) {
            boolean usable = this.redis.opsForZSet().score(this.keys.entry(), reservation.userId()) != null;
            assertThat(usable).as("token of %s usable again", reservation.bookingId())
                .isEqualTo(releasedBySweeper.contains(reservation.bookingId()));
        }
        assertThat(this.redis.opsForHash().size(this.keys.reservations())).isZero();
        assertThat(this.redis.opsForZSet().size(this.keys.reservedAt())).isZero();
    }

    /** The user admitted until ten minutes from now; their token. */
    private String admitted(String user) {
        this.redis.opsForZSet().add(this.keys.entry(), user, System.currentTimeMillis() + 600_000);
        return this.codec.issue(this.product, user).value();
    }

    private long reservedAt(Reservation reservation) {
        Double at = this.redis.opsForZSet().score(this.keys.reservedAt(), reservation.bookingId());
        assertThat(at).as("dated by the gate").isNotNull();
        return at.longValue();
    }

    /** Publishes the booking as booking-service does (keyed by product) and waits for the broker's acknowledgement. */
    private void publish(Reservation reservation) throws Exception {
        String booking = JsonMapper.shared().writeValueAsString(Map.of("bookingId", reservation.bookingId(),
                "productId", reservation.productId(), "userId", reservation.userId(), "quantity",
                reservation.quantity(), "bookedAt", reservation.bookedAt()));
        this.producer.send(new ProducerRecord<>(BOOKINGS_TOPIC, Long.toString(this.product), booking))
            .get(30, TimeUnit.SECONDS);
    }

    private long stock() {
        return Long.parseLong(this.redis.opsForValue().get(this.keys.stock()));
    }

    private List<String> restoredBookings() {
        List<MapRecord<String, Object, Object>> audit = this.redis.opsForStream()
            .range(this.keys.audit(), Range.unbounded());
        return audit == null ? List.of() : audit.stream()
            .filter(change -> "RESTORED".equals(change.getValue().get("type")))
            .map(change -> String.valueOf(change.getValue().get("bookingId")))
            .toList();
    }

    private double settledCount(String outcome) {
        return this.metrics.counter("queuegate.reservations.settled", "outcome", outcome).count();
    }
}
