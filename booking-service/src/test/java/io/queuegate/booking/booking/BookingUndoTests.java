package io.queuegate.booking.booking;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.booking.BookingHttpTestSupport;
import io.queuegate.booking.BookingLog;
import io.queuegate.core.testing.PrivateBroker;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A booking Kafka does not acknowledge is not a booking: 503 with Retry-After, and the stock and the token are given
 * back, so that the same token books once Kafka takes bookings again. Kafka fails for real: a second booking service
 * is started against a broker of the test's own that is shut down under it, or against an address no broker
 * listens on.
 */
class BookingUndoTests extends BookingHttpTestSupport {

    /** The publish timeout (2 s) bounds the wait for Kafka; this leaves room for a slow machine, not for a hang. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(10);

    @Test
    void aBookingWhoseBrokerWentDownIsUndoneAndItsTokenBooksOnceKafkaIsBack() {
        long product = productWithStock(10);
        String first = admit(product, "first");
        Admitted erin = admitted(product, "erin");

        EmbeddedKafkaKraftBroker broker = PrivateBroker.start(12, TOPIC);
        boolean brokerUp = true;
        try (ConfigurableApplicationContext service = startAnother(broker.getBrokersAsString())) {
            RestTestClient client = client(portOf(service));
            // the service books while its broker is up
            EntityExchangeResult<String> created = book(client, product, first, 1);
            assertThat(created.getStatus().value()).as(created.getResponseBody()).isEqualTo(201);
            assertThat(stock(product)).isEqualTo(9);

            broker.destroy();
            brokerUp = false;
            EntityExchangeResult<String> refused = timedBook(client, product, erin.token(), 2);

            assertUndone(refused, service.getBean(MeterRegistry.class), 1);
        }
        finally {
            if (brokerUp) {
                broker.destroy();
            }
        }
        assertGivenBack(erin, 9);
        assertBooksOnceKafkaIsBack(erin, 2, 7);
    }

    @Test
    void aBookingWithNoBrokerToReachIsUndoneAndItsTokenBooksOnceKafkaIsBack() {
        long product = productWithStock(3);
        Admitted frank = admitted(product, "frank");

        try (ConfigurableApplicationContext service = startAnother("127.0.0.1:1",
                "--spring.kafka.admin.auto-create=false")) {
            EntityExchangeResult<String> refused = timedBook(client(portOf(service)), product, frank.token(), 3);

            assertUndone(refused, service.getBean(MeterRegistry.class), 0);
        }
        assertGivenBack(frank, 3);
        assertBooksOnceKafkaIsBack(frank, 3, 0);
    }

    private static EntityExchangeResult<String> timedBook(RestTestClient client, long product, String token,
            int quantity) {
        long started = System.nanoTime();
        EntityExchangeResult<String> result = book(client, product, token, quantity);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ANSWERED_WITHIN);
        return result;
    }

    /** The refusal, and the service's count of bookings by outcome: undone once, booked {@code booked} times. */
    private static void assertUndone(EntityExchangeResult<String> refused, MeterRegistry metrics, int booked) {
        assertThat(refused.getStatus().value()).as(refused.getResponseBody()).isEqualTo(503);
        assertThat(code(refused)).isEqualTo("unavailable");
        assertThat(refused.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(bookings(metrics, "undone")).isEqualTo(1);
        assertThat(bookings(metrics, "booked")).isEqualTo(booked);
    }

    /** Stock, entry and place as they were before the undone booking, and nothing of it recorded. */
    private void assertGivenBack(Admitted user, long stock) {
        long product = user.product();
        String userId = user.userId();
        assertThat(stock(product)).isEqualTo(stock);
        assertThat(entryExpiry(product, userId)).as("the entry back with its expiry").isEqualTo(user.expiry());
        assertThat(gone(product)).doesNotContain(userId);
        assertThat(reservations(product)).isEmpty();
        assertThat(bookingRecords(product).values())
            .noneSatisfy((record) -> assertThat(record.toString()).contains("\"" + userId + "\""));
        assertThat(BookingLog.events(this.brokers, product)).isEmpty();
    }

    /** The same token books through this test's service, whose Kafka is up. */
    private void assertBooksOnceKafkaIsBack(Admitted user, int quantity, long stockLeft) {
        EntityExchangeResult<String> created = book(user.product(), user.token(), quantity);
        assertThat(created.getStatus().value()).as(created.getResponseBody()).isEqualTo(201);
        assertThat(stock(user.product())).isEqualTo(stockLeft);
        assertThat(BookingLog.events(this.brokers, user.product())).singleElement().satisfies((event) -> {
            assertThat(event.get("userId").asString()).isEqualTo(user.userId());
            assertThat(event.get("quantity").asInt()).isEqualTo(quantity);
        });
    }
}
