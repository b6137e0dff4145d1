package io.queuegate.ingest.leave;

import java.time.Duration;

import io.queuegate.core.event.EntryLeft;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.IngestProperties;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableTopic;
import io.queuegate.web.DurableWrite;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Makes a leave durable before it is applied and acknowledged: a Redis that loses the sale restores the leaves from
 * this topic before it replays the lines, so a user who left is not placed again.
 */
@Component
class LeavePublisher {

    private final DurableTopic<EntryLeft> leaves;

    private final Duration retryAfter;

    LeavePublisher(KafkaTemplate<String, Object> kafka, IngestProperties properties) {
        this.leaves = new DurableTopic<>(kafka, properties.leavesTopic(), properties.publishTimeout());
        this.retryAfter = properties.retryAfter();
    }

    /** @throws ApiException 503 when Kafka did not acknowledge within the publish timeout; nothing was removed */
    void publish(Token token) {
        EntryLeft left = new EntryLeft(token.productId(), token.userId(), System.currentTimeMillis());
        DurableWrite.orUnavailable(() -> this.leaves.send(Long.toString(token.productId()), left),
                "The leave could not be stored; nothing changed, try again.", this.retryAfter);
    }
}
