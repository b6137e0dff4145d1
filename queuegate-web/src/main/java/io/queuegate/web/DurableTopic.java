package io.queuegate.web;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.springframework.kafka.core.KafkaOperations;

/**
 * A topic whose writes count only once Kafka holds them (see {@link DurableWrite}): each send waits for the broker's
 * acknowledgement (acks=all) within the timeout. Bookings, leaves, queue settings and stock settings are published
 * through one each, before they are answered.
 *
 * @param <V> what is written to the topic
 */
public final class DurableTopic<V> {

    private final KafkaOperations<String, ? super V> kafka;

    private final String topic;

    private final Duration timeout;

    public DurableTopic(KafkaOperations<String, ? super V> kafka, String topic, Duration timeout) {
        this.kafka = kafka;
        this.topic = topic;
        this.timeout = timeout;
    }

    /**
     * Sends the record and waits for the broker's acknowledgement.
     *
     * @throws Exception when Kafka did not acknowledge within the timeout
     */
    public void send(String key, V value) throws Exception {
        this.kafka.send(this.topic, key, value).get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
