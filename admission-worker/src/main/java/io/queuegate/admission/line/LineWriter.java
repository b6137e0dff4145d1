package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.line.EnterDeadLetters.Reason;
import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Writes enter events into the products' lines in log order. The body is synchronous: the container commits
 * the batch's offsets only after it returns, so only after Redis has every user of the batch. A Redis failure
 * throws, and the error handler retries the same batch until Redis answers; nothing is skipped.
 *
 * <p>A batch is cut into chunks that are parsed and verified in parallel: done in series on the consumer thread,
 * parsing and HMAC verification capped a one-partition burst at one core's worth and left the other idle. The
 * values arrive as bytes so that parsing is part of that parallel step.
 *
 * <p>Each chunk is sent to Redis as soon as it is verified and the one before it was sent, without waiting for
 * Redis to answer the one before: waiting for each answer in turn left Redis idle for most of a burst. Order
 * holds because every chunk names the offset the previous chunk of its product and partition ended at, and the
 * line refuses a chunk whose predecessor it has not applied (see {@link io.queuegate.core.queue.LineChunk}); a
 * refusal fails the batch, and its retry skips what is in.
 *
 * <p>Every batch first checks that Redis still is the one the committed offsets were applied to, the same lines' id
 * served by the same process ({@link LineEpoch}); one that lost its data, or restarted since and may have lost its
 * last writes, gets no append ahead of the records before it: the writer restarts, and its new assignment restores
 * the sale and reads from the start of the log ({@link LineRebuild}). A restart that falls between that check and the
 * appends is caught by the line itself, which refuses chunks on a Redis process it was not restored for.
 */
@Component
class LineWriter implements DisposableBean {

    static final String LISTENER_ID = "waiting-writer";

    /** About what one enter takes in a record: a token, a user id, a request id and a time, in JSON. */
    static final int BYTES_PER_ENTER = 128;

    private static final Logger log = LoggerFactory.getLogger(LineWriter.class);

    private final WaitingLine line;

    private final TokenCodec tokens;

    private final int chunk;

    private final Counter appended;

    private final EnterDeadLetters deadLetters;

    private final LineEpoch epoch;

    private final WriterRestart restart;

    /** Parses and verifies chunks, and sends them: each chunk is sent after the previous one was sent. */
    private final ExecutorService steps = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("waiting-writer-step-", 0).factory());

    private final EnterEventReader events;

    private final ApplicationEventPublisher publisher;

    LineWriter(WaitingLine line, TokenCodec tokens, AdmissionProperties properties, JsonMapper json,
            EnterDeadLetters deadLetters, LineEpoch epoch, WriterRestart restart, ApplicationEventPublisher publisher,
            MeterRegistry metrics) {
        this.line = line;
        this.publisher = publisher;
        this.events = new EnterEventReader(json);
        this.tokens = tokens;
        this.chunk = properties.appendChunk();
        this.appended = metrics.counter("queuegate.line.appended");
        this.deadLetters = deadLetters;
        this.epoch = epoch;
        this.restart = restart;
    }

    // idIsGroup = false: the consumer group is spring.kafka.consumer.group-id, not the listener's id
    @KafkaListener(id = LISTENER_ID, idIsGroup = false, topics = "${queuegate.admission.topic:queuegate.entries}",
            batch = "true")
    void onEntries(List<ConsumerRecord<String, byte[]>> records) {
        if (!this.epoch.unchanged()) {
            // Redis lost the lines, or restarted and may have lost its last writes, since the partitions were
            // assigned: nothing of this batch may go in ahead of the records before it. A new assignment restores
            // the sale and reads every partition from the start (LineRebuild).
            this.restart.request();
            throw new IllegalStateException("Redis lost the lines it held or restarted; the writer restarts to "
                    + "rebuild them");
        }
        ChunkSender sender = new ChunkSender(this.line, this.epoch);
        CompletableFuture<Void> sent = CompletableFuture.completedFuture(null);
        for (List<ConsumerRecord<String, byte[]>> chunk : chunks(records, this.chunk)) {
            CompletableFuture<Map<LineSource, LineChunkBuilder>> verified = CompletableFuture
                .supplyAsync(() -> byProduct(chunk), this.steps);
            sent = sent.thenCombineAsync(verified, (previous, groups) -> sender.send(groups.values()), this.steps);
        }
        try {
            // every chunk handed to Redis, in order, before any failure is looked at
            sent.join();
        }
        catch (CompletionException ex) {
            throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
        }
        finally {
            this.appended.increment(sender.awaitAdded());
        }
        if (sender.redisRestarted()) {
            // The epoch was read before the chunks went out, and Redis restarted after it (the chunks were queued
            // while it was away): its lines may lack their last writes, and refuse appends until restored.
            this.restart.request();
            throw new IllegalStateException("Redis restarted under the writer; the writer restarts to restore the sale");
        }
        if (sender.redisWentBack()) {
            // Redis holds less of a line than it confirmed to this writer: it lost acknowledged writes.
            this.epoch.foundBehind();
            this.restart.request();
            throw new IllegalStateException("Redis holds less of a line than it confirmed; the writer restarts to "
                    + "restore the sale");
        }
        // the first failed or refused chunk: the error handler retries the whole batch, and the line skips what is in
        sender.throwFirstFailure();
        Set<Long> grown = sender.grownProducts();
        if (!grown.isEmpty()) {
            this.publisher.publishEvent(new LinesGrew(grown));
        }
    }

    /**
     * The batch cut into runs of records holding about {@code events} enters each. A record is not parsed to count
     * its enters: it counts one per {@link #BYTES_PER_ENTER} bytes of its value, at least one. Counted by records,
     * a batch of group-commit records (a hundred enters each, and more) made a single chunk, so nothing was verified
     * in parallel and Redis waited for the whole batch's verification before its first append.
     */
    static List<List<ConsumerRecord<String, byte[]>>> chunks(List<ConsumerRecord<String, byte[]>> records,
            int events) {
        List<List<ConsumerRecord<String, byte[]>>> chunks = new ArrayList<>();
        int from = 0;
        long counted = 0;
        for (int i = 0; i < records.size(); i++) {
            byte[] value = records.get(i).value();
            counted += Math.max(1, (value == null ? 0 : value.length) / BYTES_PER_ENTER);
            if (counted >= events) {
                chunks.add(records.subList(from, i + 1));
                from = i + 1;
                counted = 0;
            }
        }
        if (from < records.size()) {
            chunks.add(records.subList(from, records.size()));
        }
        return chunks;
    }

    @Override
    public void destroy() {
        this.steps.close();
    }

    /**
     * Groups the tokens' users by product (and partition), each group in log order (a record's enters in their
     * order within it). Records that do not parse, and enters whose token this deployment did not issue, are not
     * applied: the log is not trusted to let anyone in. Such records are set aside on the dead-letter topic (the
     * genuine enters of a record that also holds forged ones are still applied).
     */
    private Map<LineSource, LineChunkBuilder> byProduct(List<ConsumerRecord<String, byte[]>> records) {
        Map<LineSource, LineChunkBuilder> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            List<EntryRequested> enters = this.events.read(record.value());
            if (enters.isEmpty()) {
                this.deadLetters.setAside(record, Reason.UNREADABLE, "not an enter event of a known version");
            }
            int forged = 0;
            for (EntryRequested event : enters) {
                Token genuine = this.tokens.verify(event.token(), event.productId()).orElse(null);
                if (genuine == null) {
                    forged++;
                    continue;
                }
                if (log.isDebugEnabled()) {
                    log.debug("applying enter requestId={} product={} at {}-{}@{}", event.requestId(),
                            event.productId(), record.topic(), record.partition(), record.offset());
                }
                groups.computeIfAbsent(new LineSource(event.productId(), record.topic(), record.partition()),
                        LineChunkBuilder::new).add(record.offset(), genuine);
            }
            if (forged > 0) {
                this.deadLetters.setAside(record, Reason.FORGED, forged + " of " + enters.size()
                        + " enters carry a token this deployment did not issue for their product");
            }
        }
        return groups;
    }
}
