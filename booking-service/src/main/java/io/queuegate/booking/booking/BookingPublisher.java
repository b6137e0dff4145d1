package io.queuegate.booking.booking;

import io.queuegate.booking.BookingProperties;
import io.queuegate.web.DurableTopic;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/** Publishes a booking and waits for the broker's acknowledgement (acks=all). */
@Component
class BookingPublisher {

    private final DurableTopic<BookingConfirmed> bookings;

    BookingPublisher(KafkaTemplate<String, BookingConfirmed> kafka, BookingProperties properties) {
        this.bookings = new DurableTopic<>(kafka, properties.topic(), properties.publishTimeout());
    }

    /** @throws Exception when Kafka did not acknowledge within the publish timeout */
    void publish(BookingConfirmed booking) throws Exception {
        this.bookings.send(Long.toString(booking.productId()), booking);
    }
}
