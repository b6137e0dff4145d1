package io.queuegate.web.ops;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.support.LoggingProducerListener;
import org.springframework.kafka.support.ProducerListener;

/**
 * What a send Kafka did not take logs: the topic, the partition when one was chosen, and the exception; never the
 * record's key or value. Every template the services build has it ({@link SendFailureLogConfiguration} gives it to
 * Spring Boot's, the dead-letter recoverers set it on their own) instead of Spring Kafka's
 * {@link LoggingProducerListener}, which logs the whole record at ERROR: an enter event's tokens, an admission's.
 *
 * @param <K> the records' key type
 * @param <V> the records' value type
 */
public final class SendFailureLog<K, V> implements ProducerListener<K, V> {

    private static final Logger log = LoggerFactory.getLogger(SendFailureLog.class);

    @Override
    public void onError(ProducerRecord<K, V> record, RecordMetadata metadata, Exception exception) {
        Integer partition = metadata != null && metadata.partition() >= 0 ? Integer.valueOf(metadata.partition())
                : record.partition();
        if (partition == null) {
            log.error("Kafka did not take a record for topic {}", record.topic(), exception);
        }
        else {
            log.error("Kafka did not take a record for topic {} partition {}", record.topic(), partition, exception);
        }
    }
}
