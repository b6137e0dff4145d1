package io.queuegate.ingest.enter;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.core.testing.TopicLog;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.json.JsonMapper;

/** What the entries topic holds of a product: the proof that an enter was, or was not, written. */
final class EnterLog {

    private EnterLog() {
    }

    /** Every record keyed by the product, read from the start of every partition to its current end. */
    static List<ConsumerRecord<String, String>> records(String brokers, long product) {
        return TopicLog.records(brokers, IngestHttpTestSupport.TOPIC, product);
    }

    /** The tokens one record (a group commit) carries. */
    static List<String> tokensOf(ConsumerRecord<String, String> record) {
        List<String> tokens = new ArrayList<>();
        JsonMapper.shared().readTree(record.value()).get("entries").forEach((e) -> tokens.add(e.get("token").asString()));
        return tokens;
    }

    /** Every token the product's records carry, in log order. */
    static List<String> tokens(String brokers, long product) {
        return records(brokers, product).stream().flatMap((record) -> tokensOf(record).stream()).toList();
    }
}
