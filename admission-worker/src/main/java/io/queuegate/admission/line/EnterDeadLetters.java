package io.queuegate.admission.line;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.web.ops.SendFailureLog;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer.HeaderNames.HeadersToAdd;
import org.springframework.stereotype.Component;

/**
 * Sets aside the enter records the writer will not apply: records that are not enter events at all, and records
 * with enters whose token this deployment did not issue. Each goes to the dead-letter topic
 * ({@code queuegate.entries.DLT}) as it was, its bytes and headers untouched, with spring-kafka's headers naming
 * where it came from and why ({@code kafka_dlt-original-*}, {@code kafka_dlt-exception-message}) and
 * {@link #REASON_HEADER}, so an operator can inspect it and, once the cause is fixed, replay it: the line skips
 * anyone already placed, so a replayed record adds only those who were missing.
 *
 * <p>The record is on the dead-letter topic before the batch's offsets are committed: a failed send fails the
 * batch, which is retried, so nothing is set aside silently (a retry may set it aside twice).
 */
@Component
class EnterDeadLetters implements DisposableBean {

    /** The reason a record was set aside: {@code unreadable} or {@code forged}. */
    static final String REASON_HEADER = "queuegate-dlt-reason";

    private static final Logger log = LoggerFactory.getLogger(EnterDeadLetters.class);

    /** Its own producer: the application's template writes JSON, and a dead letter keeps the original bytes. */
    private final DefaultKafkaProducerFactory<String, byte[]> producers;

    private final DeadLetterPublishingRecoverer recoverer;

    private final Map<Reason, Counter> counters;

    EnterDeadLetters(KafkaProperties kafka, AdmissionProperties properties, MeterRegistry metrics) {
        this.producers = new DefaultKafkaProducerFactory<>(kafka.buildProducerProperties(), new StringSerializer(),
                new ByteArraySerializer());
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(this.producers);
        // a dead letter that Kafka does not take is logged without its bytes, which hold the enters' tokens
        template.setProducerListener(new SendFailureLog<>());
        // partition -1: the key (the product) picks it, so one product's dead letters stay in order
        this.recoverer = new DeadLetterPublishingRecoverer(template,
                (record, ex) -> new TopicPartition(properties.deadLetterTopic(), -1));
        this.recoverer.excludeHeader(HeadersToAdd.EX_STACKTRACE);
        this.recoverer.setWaitForSendResultTimeout(Duration.ofSeconds(10));
        this.recoverer.addHeadersFunction((record, ex) -> new RecordHeaders().add(REASON_HEADER,
                ((Rejected) ex).reason.code.getBytes(StandardCharsets.UTF_8)));
        this.counters = Map.of(
                Reason.UNREADABLE, metrics.counter("queuegate.line.dropped", "reason", Reason.UNREADABLE.code),
                Reason.FORGED, metrics.counter("queuegate.line.dropped", "reason", Reason.FORGED.code));
    }

    /** Sends the record to the dead-letter topic and waits for Kafka to hold it; throws when it cannot. */
    void setAside(ConsumerRecord<String, byte[]> record, Reason reason, String why) {
        log.warn("set aside {} enter record at {}-{}@{}: {}", reason.code, record.topic(), record.partition(),
                record.offset(), why);
        this.recoverer.accept(record, null, new Rejected(reason, why));
        this.counters.get(reason).increment();
    }

    @Override
    public void destroy() {
        this.producers.destroy();
    }

    enum Reason {

        /** Not an enter event of any version this worker reads. */
        UNREADABLE("unreadable"),

        /** One or more enters carry a token this deployment did not issue, or one for another product. */
        FORGED("forged");

        final String code;

        Reason(String code) {
            this.code = code;
        }
    }

    /** Why a record was set aside; its message becomes the record's exception-message header. */
    static final class Rejected extends RuntimeException {

        private final Reason reason;

        Rejected(Reason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }
}
