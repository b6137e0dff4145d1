package io.queuegate.admission.admin;

import java.time.Duration;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.event.QueueConfigured;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.web.DurableTopic;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Makes a queue's settings durable on the sale topic before they are stored in Redis and acknowledged, so that a
 * Redis that loses them gets them back (the sale is rebuilt from the log; see {@code SaleRestore}).
 */
@Component
class QueuePublisher {

    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

    private final DurableTopic<QueueConfigured> sale;

    QueuePublisher(KafkaTemplate<String, QueueConfigured> kafka, AdmissionProperties properties) {
        this.sale = new DurableTopic<>(kafka, properties.saleTopic(), PUBLISH_TIMEOUT);
    }

    /** @throws Exception when Kafka did not acknowledge in time; nothing is stored then */
    void publish(long productId, QueueSettings settings) throws Exception {
        this.sale.send(QueueConfigured.key(productId), new QueueConfigured(productId, settings));
    }

    /**
     * @param settings the queue's last settings, kept so that a restore knows the queue it drains
     * @throws Exception when Kafka did not acknowledge in time; nothing is stored then
     */
    void publishDeleted(long productId, QueueSettings settings, long deletedAt) throws Exception {
        this.sale.send(QueueConfigured.key(productId), new QueueConfigured(productId, settings, deletedAt));
    }
}
