package io.queuegate.ingest.leave;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.event.EntryLeft;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.IngestProperties;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableTopic;
import io.queuegate.web.DurableWrite;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * A leave: made durable before it is applied and acknowledged, then the place taken out of the line or the admitted
 * set, and counted ({@code queuegate.leaves}). A Redis that loses the sale restores the leaves from their topic before
 * it replays the lines, so a user who left is not placed again. A leave of a user gone already (left, revoked, or
 * their turn over) stores and changes nothing, so that repeating one, by a client's retry or a script's loop, adds
 * nothing to what a restore replays.
 */
@Component
class Leaves {

    private final DurableTopic<EntryLeft> topic;

    private final Duration retryAfter;

    private final Leaving places;

    private final Counter leaves;

    Leaves(KafkaTemplate<String, Object> kafka, IngestProperties properties, Leaving places, MeterRegistry metrics) {
        this.topic = new DurableTopic<>(kafka, properties.leavesTopic(), properties.publishTimeout());
        this.retryAfter = properties.retryAfter();
        this.places = places;
        this.leaves = metrics.counter("queuegate.leaves");
    }

    /**
     * Gives up the token's place. Waits for Kafka's acknowledgement and for Redis: never on an event loop.
     *
     * @throws ApiException 503 when Kafka did not acknowledge within the publish timeout; nothing was removed
     */
    void leave(Token token) {
        if (this.places.isGone(token)) {
            // gone already: another leave, repeated, would only be one more record for every restore to replay
            return;
        }
        EntryLeft left = new EntryLeft(token.productId(), token.userId(), System.currentTimeMillis());
        // in the log first: a Redis that loses the leave gets it back from there, and nobody who left comes back
        DurableWrite.orUnavailable(() -> this.topic.send(Long.toString(token.productId()), left),
                "The leave could not be stored; nothing changed, try again.", this.retryAfter);
        if (this.places.remove(token)) {
            this.leaves.increment();
        }
    }
}
