package io.queuegate.booking.booking;

import io.queuegate.booking.BookingProperties;
import io.queuegate.web.DurableWrite;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/** Publishes a booking and waits for the broker's acknowledgement (acks=all). */
@Component
class BookingPublisher {

    private final KafkaTemplate<String, BookingConfirmed> kafka;

    private final BookingProperties properties;

    BookingPublisher(KafkaTemplate<String, BookingConfirmed> kafka, BookingProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    /** @throws Exception when Kafka did not acknowledge within the publish timeout */
    void publish(BookingConfirmed booking) throws Exception {
        DurableWrite.send(this.kafka, this.properties.topic(), Long.toString(booking.productId()), booking,
                this.properties.publishTimeout());
    }
}
