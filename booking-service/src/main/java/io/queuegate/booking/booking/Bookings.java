package io.queuegate.booking.booking;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.booking.BookingProperties;
import io.queuegate.gate.AdmissionGate;
import io.queuegate.gate.GateProperties;
import io.queuegate.gate.Reservation;
import io.queuegate.web.ApiException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * A booking, whichever way it is asked for: the gate consumes the token and takes the stock in one atomic step, the
 * booking event is published, and only once Kafka holds it is the reservation confirmed; a booking Kafka did not
 * store is undone. The token is used exactly once and stock never goes below zero. Counts every booking by outcome
 * ({@code queuegate.bookings}).
 *
 * <p>A reservation this process leaves unconfirmed (killed between the reservation and the publish, or while the
 * gate chases an unknown outcome) is settled by the admission worker's sweeper once it is older than the publish
 * timeout and a margin: confirmed when its booking is in the topic, released when not. So a booking is published only
 * within the publish timeout of its reservation, and confirmed by a step that loses to the sweeper's release when this
 * process was too slow (frozen, paused): then the buyer is told 503, as for a booking Kafka did not store.
 */
@Component
class Bookings {

    private static final Logger log = LoggerFactory.getLogger(Bookings.class);

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final AdmissionGate gate;

    private final int maxQuantity;

    private final BookingPublisher publisher;

    private final MeterRegistry metrics;

    /** The longest a reservation may wait for its publish to begin: the sweeper waits for no more than this and a margin. */
    private final long publishTimeoutNanos;

    Bookings(AdmissionGate gate, GateProperties gateProperties, BookingPublisher publisher, MeterRegistry metrics,
            BookingProperties properties) {
        this.gate = gate;
        this.publishTimeoutNanos = properties.publishTimeout().toNanos();
        this.maxQuantity = gateProperties.maxQuantity();
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /**
     * Books {@code quantity} units of the product for the token's user, and returns the booking once Kafka stored it.
     *
     * @param quantity at least 1
     * @throws ApiException 400 {@code invalid_request} for more than {@code queuegate.gate.max-quantity} (nothing is
     *     consumed), 403 {@code token_not_admitted}, 409 {@code sold_out} (the token stays usable), or 503
     *     {@code unavailable}: the sale is being restored, or Kafka did not store the booking and the reservation was
     *     undone
     * @throws DataAccessException when Redis did not answer the reservation (the gate undoes one made after all)
     */
    BookingConfirmed book(long productId, String token, int quantity) {
        if (quantity > this.maxQuantity) {
            throw ApiException.invalidRequest("quantity must be at most " + this.maxQuantity + ".");
        }
        Reservation reservation;
        long reserving = System.nanoTime();
        try {
            reservation = this.gate.reserve(productId, token, quantity);
        }
        catch (ApiException ex) {
            count(ex.code());
            throw ex;
        }
        BookingConfirmed booking = new BookingConfirmed(reservation.bookingId(), reservation.productId(),
                reservation.userId(), reservation.quantity(), reservation.bookedAt());
        if (System.nanoTime() - reserving > this.publishTimeoutNanos) {
            // the reservation took as long as a publish may (a replica's WAIT, a pause): past it, the sweeper may
            // already settle it, and a booking published this late could land after its release
            return undone(reservation, booking, "its reservation took longer than the publish timeout");
        }
        try {
            this.publisher.publish(booking);
        }
        catch (Exception ex) {
            // Not durable, so not booked: give the stock and the token back before answering.
            return undone(reservation, booking, "Kafka did not acknowledge: " + ex);
        }
        try {
            if (!this.gate.confirm(reservation)) {
                // The sweeper took it for stranded and released it: the token and the stock are back, and the audit's
                // RESTORED change names this booking, so its record in the topic books nothing. Not booked.
                count("undone");
                log.warn("booking {} released by the reservation sweeper before it was confirmed; answered 503",
                        reservation.bookingId());
                throw ApiException.unavailable("The booking could not be stored; nothing was taken, try again.",
                        RETRY_AFTER);
            }
        }
        catch (DataAccessException ex) {
            // The booking is durable in Kafka, published within the publish timeout of its reservation: the sweeper,
            // which waits longer, finds it in the topic and confirms the reservation.
            log.warn("booking {} stored, its reservation mark not cleared: {}", reservation.bookingId(), ex.toString());
        }
        count("booked");
        return booking;
    }

    /**
     * Gives the stock and the token back and answers 503; unless the sweeper settled the reservation first and found
     * the booking in the topic (Kafka stored it after all, and this process was too slow to hear): then it stands.
     */
    private BookingConfirmed undone(Reservation reservation, BookingConfirmed booking, String why) {
        if (!this.gate.release(reservation) && this.gate.confirm(reservation)) {
            count("booked");
            log.warn("booking {} stands: the reservation sweeper found it in the topic although {}",
                    reservation.bookingId(), why);
            return booking;
        }
        count("undone");
        log.warn("booking {} undone, {}", reservation.bookingId(), why);
        throw ApiException.unavailable("The booking could not be stored; nothing was taken, try again.", RETRY_AFTER);
    }

    private void count(String outcome) {
        this.metrics.counter("queuegate.bookings", "outcome", outcome).increment();
    }
}
