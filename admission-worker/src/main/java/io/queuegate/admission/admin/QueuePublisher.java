package io.queuegate.admission.admin;

import java.time.Duration;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.event.QueueConfigured;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.web.DurableWrite;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Makes a queue's settings durable on the sale topic before they are stored in Redis and acknowledged, so that a
 * Redis that loses them gets them back (the sale is rebuilt from the log; see {@code SaleRestore}).
 */
@Component
class QueuePublisher {

    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaTemplate<String, QueueConfigured> kafka;

    private final AdmissionProperties properties;

    QueuePublisher(KafkaTemplate<String, QueueConfigured> kafka, AdmissionProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    /** @throws Exception when Kafka did not acknowledge in time; nothing is stored then */
    void publish(long productId, QueueSettings settings) throws Exception {
        DurableWrite.send(this.kafka, this.properties.saleTopic(), QueueConfigured.key(productId),
                new QueueConfigured(productId, settings), PUBLISH_TIMEOUT);
    }
}
