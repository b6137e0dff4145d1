package io.queuegate.booking.booking;

import java.net.URI;

import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.gate.BookingLookup;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.validation.Valid;

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

/**
 * Books a product for an admitted token over HTTP: has {@link Bookings} book it (the token is used exactly once and
 * stock never goes below zero), and answers the booking with its Location.
 */
@RestController
@RequestMapping(path = "/api/v1/bookings", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "bookings", description = "Book with an admitted entry token")
record BookingController(Bookings bookings, BookingLookup lookup) {

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Book", description = """
            Consumes the token and takes the stock in one atomic step; answers 201 only once the booking event is \
            stored in Kafka.""")
    @ApiResponse(responseCode = "201", description = "Booked", headers = @Header(name = HttpHeaders.LOCATION,
            description = "The booking: /api/v1/bookings/{bookingId}", required = true,
            schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "400", description = "invalid_request; nothing was consumed")
    @ApiResponse(responseCode = "403", description = "token_not_admitted: forged, waiting, expired, used or foreign")
    @ApiResponse(responseCode = "409", description = "sold_out; the token stays usable")
    @ApiResponse(responseCode = "503", description = "unavailable; the reservation was undone")
    ResponseEntity<BookingResponse> book(@Valid @RequestBody BookingRequest request) {
        BookingConfirmed booking = this.bookings.book(request.productId(), request.token(),
                request.quantityOrDefault());
        return ResponseEntity.created(URI.create("/api/v1/bookings/" + booking.bookingId()))
            .body(BookingResponse.of(booking));
    }

    @GetMapping("/{bookingId}")
    @Operation(operationId = "readBooking", summary = "Read a booking")
    @ApiResponse(responseCode = "200", description = "The booking")
    @ApiResponse(responseCode = "404", description = "not_found")
    BookingResponse get(@PathVariable String bookingId) {
        return this.lookup.find(bookingId)
            .map(BookingResponse::of)
            .orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, ProblemCodes.NOT_FOUND,
                    "No booking " + bookingId + "."));
    }
}
