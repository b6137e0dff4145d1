package io.queuegate.booking.booking;

import java.util.List;

import io.queuegate.booking.BookingHttpTestSupport;
import io.queuegate.booking.BookingLog;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.test.web.servlet.client.EntityExchangeResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A booking over HTTP against the real Redis and an embedded KRaft broker: 201 only for a booking Kafka holds, the
 * token used exactly once, the stock taken by the quantity; and the refusals, each of which takes nothing.
 */
class BookingHttpTests extends BookingHttpTestSupport {

    @Test
    void anAdmittedTokenBooksOnceAndTheBookingIsInKafkaAndReadsBack() {
        long product = productWithStock(10);
        String token = admit(product, "alice");
        double booked = bookings("booked");
        double notAdmitted = bookings("token_not_admitted");

        EntityExchangeResult<String> created = book(product, token, 3);

        assertThat(created.getStatus().value()).as(created.getResponseBody()).isEqualTo(201);
        JsonNode booking = json(created);
        String bookingId = booking.get("bookingId").asString();
        assertThat(bookingId).startsWith(product + "-");
        assertThat(created.getResponseHeaders().getLocation()).hasToString("/api/v1/bookings/" + bookingId);
        assertThat(booking.get("productId").asLong()).isEqualTo(product);
        assertThat(booking.get("userId").asString()).isEqualTo("alice");
        assertThat(booking.get("quantity").asInt()).isEqualTo(3);
        assertThat(booking.get("bookedAt").asLong()).isPositive();

        // Redis: the stock went down by the quantity, the place is used, the reservation confirmed
        assertThat(stock(product)).isEqualTo(7);
        assertThat(entryExpiry(product, "alice")).isNull();
        assertThat(gone(product)).containsExactly("alice");
        assertThat(bookingRecords(product)).containsOnlyKeys(bookingId);
        assertThat(reservations(product)).as("reservation marks left unconfirmed").isEmpty();

        // Kafka held the event before the 201 was sent: it is in the log now, without waiting
        List<ConsumerRecord<String, String>> records = BookingLog.records(this.brokers, product);
        assertThat(records).singleElement().satisfies((record) -> {
            assertThat(record.key()).isEqualTo(Long.toString(product));
            assertThat(JsonMapper.shared().readTree(record.value())).isEqualTo(booking);
        });

        // the Location answers the booking
        EntityExchangeResult<String> read = this.http.get().uri(created.getResponseHeaders().getLocation())
            .exchange()
            .returnResult(String.class);
        assertThat(read.getStatus().value()).isEqualTo(200);
        assertThat(json(read)).isEqualTo(booking);

        // the token is used: a second booking with it is refused and takes nothing
        EntityExchangeResult<String> again = book(product, token, 1);
        assertThat(again.getStatus().value()).isEqualTo(403);
        assertThat(code(again)).isEqualTo("token_not_admitted");
        assertThat(stock(product)).isEqualTo(7);
        assertThat(bookingRecords(product)).containsOnlyKeys(bookingId);
        assertThat(BookingLog.records(this.brokers, product)).hasSize(1);

        assertThat(bookings("booked") - booked).isEqualTo(1);
        assertThat(bookings("token_not_admitted") - notAdmitted).isEqualTo(1);
    }

    @Test
    void aBookingThatIsNotThereIsNotFound() {
        long product = newProduct();

        EntityExchangeResult<String> read = this.http.get().uri("/api/v1/bookings/{id}", product + "-nope")
            .exchange()
            .returnResult(String.class);

        assertThat(read.getStatus().value()).isEqualTo(404);
        assertThat(code(read)).isEqualTo("not_found");
    }

    @Test
    void soldOutIsAConflictThatTakesNothingAndLeavesTheTokenUsable() {
        long product = productWithStock(1);
        Admitted bob = admitted(product, "bob");
        double soldOut = bookings("sold_out");

        EntityExchangeResult<String> refused = book(product, bob.token(), 2);

        assertThat(refused.getStatus().value()).isEqualTo(409);
        assertThat(code(refused)).isEqualTo("sold_out");
        assertThat(stock(product)).isEqualTo(1);
        assertThat(entryExpiry(product, "bob")).as("bob's entry, as it was").isEqualTo(bob.expiry());
        assertThat(gone(product)).isEmpty();
        assertThat(bookingRecords(product)).isEmpty();
        assertThat(BookingLog.records(this.brokers, product)).isEmpty();
        assertThat(bookings("sold_out") - soldOut).isEqualTo(1);

        // the token stays usable: what is left, it books
        EntityExchangeResult<String> created = book(product, bob.token(), 1);
        assertThat(created.getStatus().value()).as(created.getResponseBody()).isEqualTo(201);
        assertThat(stock(product)).isZero();
        assertThat(BookingLog.events(this.brokers, product)).singleElement()
            .satisfies((event) -> assertThat(event.get("userId").asString()).isEqualTo("bob"));

        // and with nothing left, the next admitted user is told sold out
        EntityExchangeResult<String> late = book(product, admit(product, "carol"), 1);
        assertThat(late.getStatus().value()).isEqualTo(409);
        assertThat(code(late)).isEqualTo("sold_out");
        assertThat(stock(product)).isZero();
    }

    @Test
    void aTokenNotAdmittedIsForbiddenAndTakesNothing() {
        long product = productWithStock(5);
        admit(product, "admitted");

        List<String> tokens = List.of(notAdmitted(product, "waiting"), // issued here, still waiting
                this.codec.issue(product + 1, "admitted").value(),     // another product's
                "forged-token-ABCDEFGHIJKLMNOP");                       // not issued here
        for (String token : tokens) {
            EntityExchangeResult<String> refused = book(product, token, 1);
            assertThat(refused.getStatus().value()).as(token).isEqualTo(403);
            assertThat(code(refused)).isEqualTo("token_not_admitted");
        }

        assertThat(stock(product)).isEqualTo(5);
        assertThat(entryExpiry(product, "admitted")).isNotNull();
        assertThat(bookingRecords(product)).isEmpty();
        assertThat(BookingLog.records(this.brokers, product)).isEmpty();
    }

    @Test
    void aQuantityAboveTheGatesMaximumIsAnInvalidRequestThatConsumesNothing() {
        long product = productWithStock(10);
        String token = admit(product, "dave");

        // queuegate.gate.max-quantity is 4 by default
        EntityExchangeResult<String> refused = book(product, token, 5);

        assertThat(refused.getStatus().value()).isEqualTo(400);
        assertThat(code(refused)).isEqualTo("invalid_request");
        assertThat(json(refused).get("detail").asString()).isEqualTo("quantity must be at most 4.");
        assertThat(stock(product)).isEqualTo(10);
        assertThat(entryExpiry(product, "dave")).isNotNull();

        EntityExchangeResult<String> created = book(product, token, 4);
        assertThat(created.getStatus().value()).as(created.getResponseBody()).isEqualTo(201);
        assertThat(stock(product)).isEqualTo(6);
    }
}
