package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.config.AdmissionProperties;
import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Writes enter events into the products' lines in log order. The body is synchronous: the container commits
 * the batch's offsets only after it returns, so only after Redis has every token of the batch. A Redis failure
 * throws, and the error handler retries the same batch until Redis answers; nothing is skipped.
 */
@Component
class EntryEventListener {

    static final String LISTENER_ID = "waiting-writer";

    private static final Logger log = LoggerFactory.getLogger(EntryEventListener.class);

    private final WaitingLine line;

    private final TokenCodec tokens;

    private final int chunk;

    private final Counter appended;

    private final Counter dropped;

    EntryEventListener(WaitingLine line, TokenCodec tokens, AdmissionProperties properties, MeterRegistry metrics) {
        this.line = line;
        this.tokens = tokens;
        this.chunk = properties.appendChunk();
        this.appended = metrics.counter("queuegate.line.appended");
        this.dropped = metrics.counter("queuegate.line.dropped");
    }

    // idIsGroup = false: the consumer group is spring.kafka.consumer.group-id, not the listener's id
    @KafkaListener(id = LISTENER_ID, idIsGroup = false, topics = "${queuegate.admission.topic:queuegate.entries}",
            batch = "true")
    void onEntries(List<ConsumerRecord<String, EntryRequested>> records) {
        for (Map.Entry<Long, List<String>> product : byProduct(records).entrySet()) {
            List<String> tokens = product.getValue();
            for (int from = 0; from < tokens.size(); from += this.chunk) {
                this.appended.increment(this.line.append(product.getKey(),
                        tokens.subList(from, Math.min(tokens.size(), from + this.chunk))));
            }
        }
    }

    /**
     * Groups tokens by product, each group in log order. Events that do not parse or carry a token this
     * deployment did not issue are dropped: the log is not trusted to let anyone in.
     */
    private Map<Long, List<String>> byProduct(List<ConsumerRecord<String, EntryRequested>> records) {
        Map<Long, List<String>> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, EntryRequested> record : records) {
            EntryRequested event = record.value();
            boolean genuine = event != null && this.tokens.verify(event.token())
                .filter(token -> token.productId() == event.productId())
                .isPresent();
            if (!genuine) {
                log.warn("dropped an unreadable or forged enter event at {}-{}@{}", record.topic(),
                        record.partition(), record.offset());
                this.dropped.increment();
                continue;
            }
            if (log.isDebugEnabled()) {
                log.debug("applying enter requestId={} product={} at {}-{}@{}", event.requestId(), event.productId(),
                        record.topic(), record.partition(), record.offset());
            }
            groups.computeIfAbsent(event.productId(), id -> new ArrayList<>()).add(event.token());
        }
        return groups;
    }
}
