package io.queuegate.ingest.entry;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.web.ApiException;
import io.queuegate.ingest.config.IngestProperties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Publishes an enter event and returns only once the broker acknowledged it (acks=all, idempotent producer).
 * A client therefore never holds a 202 for an event Kafka does not have. When Kafka cannot take the event
 * in time, or too many enters already wait for it, the client gets 503 with Retry-After; if the event was
 * stored after all, a retry gets the same token and the line applies it once.
 */
@Component
class EntryPublisher {

    private static final Logger log = LoggerFactory.getLogger(EntryPublisher.class);

    private final KafkaTemplate<String, EntryRequested> kafka;

    private final IngestProperties properties;

    private final Semaphore inFlight;

    EntryPublisher(KafkaTemplate<String, EntryRequested> kafka, IngestProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
        this.inFlight = new Semaphore(properties.maxInFlight());
    }

    void publish(EntryRequested event) {
        if (!this.inFlight.tryAcquire()) {
            throw ApiException.unavailable("Too many enters are in flight; try again shortly.",
                    this.properties.retryAfter());
        }
        try {
            this.kafka.send(this.properties.topic(), Long.toString(event.productId()), event)
                .get(this.properties.publishTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw notStored(ex);
        }
        catch (ExecutionException | TimeoutException | RuntimeException ex) {
            throw notStored(ex);
        }
        finally {
            this.inFlight.release();
        }
    }

    private ApiException notStored(Exception cause) {
        log.warn("enter event not acknowledged by Kafka: {}", cause.toString());
        return ApiException.unavailable("The queue log did not acknowledge the entry in time; try again shortly.",
                this.properties.retryAfter());
    }
}
