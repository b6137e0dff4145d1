package io.queuegate.ingest.enter;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.event.EntriesRequested.Entry;
import io.queuegate.ingest.Completions;
import io.queuegate.web.ApiException;
import io.queuegate.ingest.IngestProperties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Publishes an enter event and returns only once the broker acknowledged it (acks=all, idempotent producer).
 * A client therefore never holds a 202 for an event Kafka does not have. Enters travel in group commits
 * ({@link EnterGroupCommit}). When Kafka cannot take the event in time, or too many enters already wait for it,
 * the client gets 503 with Retry-After; if the event was stored after all, a retry gets the same token and the
 * line applies it once.
 */
@Component
class EnterPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(EnterPublisher.class);

    private final IngestProperties properties;

    private final Semaphore inFlight;

    private final EnterGroupCommit groupCommit;

    EnterPublisher(KafkaTemplate<String, Object> kafka, IngestProperties properties, MeterRegistry metrics) {
        this.properties = properties;
        this.inFlight = new Semaphore(properties.maxInFlight());
        this.groupCommit = new EnterGroupCommit(kafka, properties.topic(), properties.publishTimeout(),
                properties.maxEntriesPerRecord(), properties.roundGather(), properties.roundGatherBelow(), metrics);
    }

    /**
     * Completes once Kafka acknowledged the event, or fails with the {@link ApiException} to answer (503). Never
     * blocks: the HTTP front and WebFlux both answer from the completion.
     */
    CompletableFuture<Void> publish(long productId, Entry entry) {
        if (!this.inFlight.tryAcquire()) {
            return CompletableFuture.failedFuture(ApiException.unavailable(
                    "Too many enters are in flight; try again shortly.", this.properties.retryAfter()));
        }
        return this.groupCommit.submit(productId, entry).handle((stored, failure) -> {
            this.inFlight.release();
            if (failure != null) {
                throw notStored(Completions.cause(failure));
            }
            return null;
        });
    }

    private ApiException notStored(Throwable cause) {
        log.warn("enter event not acknowledged by Kafka: {}", cause.toString());
        return ApiException.unavailable("The queue log did not acknowledge the entry in time; try again shortly.",
                this.properties.retryAfter());
    }

    @Override
    public void destroy() throws InterruptedException {
        this.groupCommit.close();
    }
}
