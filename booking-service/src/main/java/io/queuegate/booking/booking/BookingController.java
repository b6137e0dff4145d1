package io.queuegate.booking.booking;

import java.net.URI;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.gate.EntryGate;
import io.queuegate.gate.GateProperties;
import io.queuegate.gate.Reservation;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.validation.Valid;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Books a product for an admitted token: the token is used exactly once and stock never goes below zero. */
@RestController
@RequestMapping(path = "/api/v1/bookings", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "bookings", description = "Book with an admitted entry token")
class BookingController {

    private static final Logger log = LoggerFactory.getLogger(BookingController.class);

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final EntryGate gate;

    private final BookingPublisher publisher;

    private final GateProperties gateProperties;

    private final MeterRegistry metrics;

    BookingController(EntryGate gate, BookingPublisher publisher, GateProperties gateProperties,
            MeterRegistry metrics) {
        this.gate = gate;
        this.publisher = publisher;
        this.gateProperties = gateProperties;
        this.metrics = metrics;
    }

    private void count(String outcome) {
        this.metrics.counter("queuegate.bookings", "outcome", outcome).increment();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Book", description = "Consumes the token and takes the stock in one atomic step; "
            + "answers 201 only once the booking event is stored in Kafka.")
    @ApiResponse(responseCode = "201", description = "Booked", headers = @Header(name = HttpHeaders.LOCATION,
            description = "The booking: /api/v1/bookings/{bookingId}", required = true,
            schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "400", description = "invalid_request; nothing was consumed")
    @ApiResponse(responseCode = "403", description = "token_not_admitted: forged, waiting, expired, used or foreign")
    @ApiResponse(responseCode = "409", description = "sold_out; the token stays usable")
    @ApiResponse(responseCode = "503", description = "unavailable; the reservation was undone")
    ResponseEntity<BookingResponse> book(@Valid @RequestBody BookingRequest request) {
        int quantity = request.quantityOrDefault();
        if (quantity > this.gateProperties.maxQuantity()) {
            throw ApiException.invalidRequest("quantity must be at most " + this.gateProperties.maxQuantity() + ".");
        }
        Reservation reservation;
        try {
            reservation = this.gate.reserve(request.productId(), request.token(), quantity);
        }
        catch (ApiException ex) {
            count(ex.code());
            throw ex;
        }
        try {
            this.publisher.publish(new BookingConfirmed(reservation.bookingId(), reservation.productId(),
                    reservation.userId(), reservation.quantity(), reservation.bookedAt()));
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
        return ResponseEntity.created(URI.create("/api/v1/bookings/" + reservation.bookingId()))
            .body(new BookingResponse(reservation.bookingId(), reservation.productId(), reservation.userId(),
                    reservation.quantity(), reservation.bookedAt()));
    }

    @GetMapping("/{bookingId}")
    @Operation(operationId = "readBooking", summary = "Read a booking")
    @ApiResponse(responseCode = "200", description = "The booking")
    @ApiResponse(responseCode = "404", description = "not_found")
    BookingResponse get(@PathVariable String bookingId) {
        return this.gate.findBooking(bookingId)
            .map(BookingResponse::of)
            .orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, ProblemCodes.NOT_FOUND,
                    "No booking " + bookingId + "."));
    }
}
