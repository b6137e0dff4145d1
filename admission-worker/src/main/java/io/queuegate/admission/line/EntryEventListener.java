package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.config.AdmissionProperties;
import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Writes enter events into the products' lines in log order. The body is synchronous: the container commits
 * the batch's offsets only after it returns, so only after Redis has every token of the batch. A Redis failure
 * throws, and the error handler retries the same batch until Redis answers; nothing is skipped.
 *
 * <p>A batch is cut into chunks that are parsed and verified in parallel, each while Redis appends the ones before
 * it: done in series on the consumer thread, parsing and HMAC verification capped a one-partition burst at one
 * core's worth and left the other idle. The values arrive as bytes so that parsing is part of that parallel step.
 * The appends themselves stay one at a time, in log order.
 */
@Component
class EntryEventListener implements DisposableBean {

    static final String LISTENER_ID = "waiting-writer";

    private static final Logger log = LoggerFactory.getLogger(EntryEventListener.class);

    private final WaitingLine line;

    private final TokenCodec tokens;

    private final int chunk;

    private final Counter appended;

    private final Counter dropped;

    /** Parses and verifies chunks, and runs the chained appends: each append starts after the previous one ended. */
    private final ExecutorService steps = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("waiting-writer-step-", 0).factory());

    private final EnterEventReader events;

    EntryEventListener(WaitingLine line, TokenCodec tokens, AdmissionProperties properties, JsonMapper json,
            MeterRegistry metrics) {
        this.line = line;
        this.events = new EnterEventReader(json);
        this.tokens = tokens;
        this.chunk = properties.appendChunk();
        this.appended = metrics.counter("queuegate.line.appended");
        this.dropped = metrics.counter("queuegate.line.dropped");
    }

    // idIsGroup = false: the consumer group is spring.kafka.consumer.group-id, not the listener's id
    @KafkaListener(id = LISTENER_ID, idIsGroup = false, topics = "${queuegate.admission.topic:queuegate.entries}",
            batch = "true")
    void onEntries(List<ConsumerRecord<String, byte[]>> records) {
        CompletableFuture<Void> written = CompletableFuture.completedFuture(null);
        for (int from = 0; from < records.size(); from += this.chunk) {
            List<ConsumerRecord<String, byte[]>> chunk = records.subList(from, Math.min(records.size(),
                    from + this.chunk));
            CompletableFuture<Map<Long, List<String>>> verified = CompletableFuture
                .supplyAsync(() -> byProduct(chunk), this.steps);
            written = written.thenCombineAsync(verified, (previous, groups) -> append(groups), this.steps);
        }
        try {
            written.join();
        }
        catch (CompletionException ex) {
            // the first failed append, as thrown: the error handler retries the whole batch
            throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
        }
    }

    private Void append(Map<Long, List<String>> groups) {
        for (Map.Entry<Long, List<String>> product : groups.entrySet()) {
            this.appended.increment(this.line.append(product.getKey(), product.getValue()));
        }
        return null;
    }

    @Override
    public void destroy() {
        this.steps.close();
    }

    /**
     * Groups tokens by product, each group in log order (a record's enters in their order within it). Records that
     * do not parse, and enters whose token this deployment did not issue, are dropped: the log is not trusted to let
     * anyone in.
     */
    private Map<Long, List<String>> byProduct(List<ConsumerRecord<String, byte[]>> records) {
        Map<Long, List<String>> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            List<EntryRequested> enters = this.events.read(record.value());
            if (enters.isEmpty()) {
                drop(record, "an unreadable enter event");
            }
            for (EntryRequested event : enters) {
                boolean genuine = this.tokens.verify(event.token())
                    .filter(token -> token.productId() == event.productId())
                    .isPresent();
                if (!genuine) {
                    drop(record, "a forged enter");
                    continue;
                }
                if (log.isDebugEnabled()) {
                    log.debug("applying enter requestId={} product={} at {}-{}@{}", event.requestId(),
                            event.productId(), record.topic(), record.partition(), record.offset());
                }
                groups.computeIfAbsent(event.productId(), id -> new ArrayList<>()).add(event.token());
            }
        }
        return groups;
    }

    private void drop(ConsumerRecord<String, byte[]> record, String what) {
        log.warn("dropped {} at {}-{}@{}", what, record.topic(), record.partition(), record.offset());
        this.dropped.increment();
    }
}
