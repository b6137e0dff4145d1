package io.queuegate.ingest.leave;

import io.queuegate.core.event.EntryLeft;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.IngestProperties;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableWrite;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Makes a leave durable before it is applied and acknowledged: a Redis that loses the sale restores the leaves from
 * this topic before it replays the lines, so a user who left is not placed again.
 */
@Component
class LeavePublisher {

    private final KafkaTemplate<String, Object> kafka;

    private final IngestProperties properties;

    LeavePublisher(KafkaTemplate<String, Object> kafka, IngestProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    /** @throws ApiException 503 when Kafka did not acknowledge within the publish timeout; nothing was removed */
    void publish(Token token) {
        DurableWrite.orUnavailable(() -> DurableWrite.send(this.kafka, this.properties.leavesTopic(),
                Long.toString(token.productId()),
                new EntryLeft(token.productId(), token.userId(), System.currentTimeMillis()),
                this.properties.publishTimeout()), "The leave could not be stored; nothing changed, try again.",
                this.properties.retryAfter());
    }
}
