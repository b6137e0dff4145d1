package io.queuegate.booking.booking;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.gate.EntryGate;
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
 */
@Component
class Bookings {

    private static final Logger log = LoggerFactory.getLogger(Bookings.class);

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final EntryGate gate;

    private final int maxQuantity;

    private final BookingPublisher publisher;

    private final MeterRegistry metrics;

    Bookings(EntryGate gate, GateProperties gateProperties, BookingPublisher publisher, MeterRegistry metrics) {
        this.gate = gate;
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
        try {
            reservation = this.gate.reserve(productId, token, quantity);
        }
        catch (ApiException ex) {
            count(ex.code());
            throw ex;
        }
        BookingConfirmed booking = new BookingConfirmed(reservation.bookingId(), reservation.productId(),
                reservation.userId(), reservation.quantity(), reservation.bookedAt());
        try {
            this.publisher.publish(booking);
        }
        catch (Exception ex) {
            // Not durable, so not booked: give the stock and the token back before answering.
            this.gate.release(reservation);
            count("undone");
            log.warn("booking {} undone, Kafka did not acknowledge: {}", reservation.bookingId(), ex.toString());
            throw ApiException.unavailable("The booking could not be stored; nothing was taken, try again.",
                    RETRY_AFTER);
        }
        try {
            this.gate.confirm(reservation);
        }
        catch (DataAccessException ex) {
            // The booking is durable in Kafka; a leftover reservation mark only matters to an unknown outcome.
            log.warn("booking {} stored, its reservation mark not cleared: {}", reservation.bookingId(), ex.toString());
        }
        count("booked");
        return booking;
    }

    private void count(String outcome) {
        this.metrics.counter("queuegate.bookings", "outcome", outcome).increment();
    }
}
