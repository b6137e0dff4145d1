package io.queuegate.booking;

import java.util.List;

import io.queuegate.core.testing.TopicLog;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the bookings topic holds of a product: the proof that a booking was, or was not, stored. Reads up to the
 * topic's end at the time of the call, without waiting for more: a booking answered 201 is in the log already.
 */
public final class BookingLog {

    private BookingLog() {
    }

    /** The booking events of the product, each record's value, in log order. */
    public static List<JsonNode> events(String brokers, long product) {
        return records(brokers, product).stream().map((record) -> JsonMapper.shared().readTree(record.value())).toList();
    }

    /** Every record keyed by the product, read from the start of every partition to its current end. */
    public static List<ConsumerRecord<String, String>> records(String brokers, long product) {
        return TopicLog.records(brokers, BookingHttpTestSupport.TOPIC, product);
    }
}
