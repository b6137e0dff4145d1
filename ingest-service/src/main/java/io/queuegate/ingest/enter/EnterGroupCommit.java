package io.queuegate.ingest.enter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.queuegate.core.event.EntriesRequested;
import io.queuegate.core.event.EntriesRequested.Entry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

/**
 * Publishes enters to Kafka in group commits: the enters that arrive while a round is in flight go out together in
 * the next round, one {@link EntriesRequested} record per product (at most {@code maxEntriesPerRecord} entries), and
 * every enter of a record learns the record's fate from its one acknowledgement.
 *
 * <p>One record per request cost the broker about 80 µs of CPU per enter and the producer a sender wake-up each;
 * a round amortises both over everyone who arrived in the meantime. The batch grows with the load by itself: a
 * round that finds fewer than {@code gatherBelow} enters may wait once, for {@code gather} (0 by default: it goes
 * out at once), for company, so nobody waits longer than that for a batch to fill. Only one round is in flight, which
 * keeps each product's records in acceptance order without relying on producer retries.
 *
 * <p>Every enter is answered within {@code publishTimeout} of its arrival: one that Kafka has not acknowledged by then
 * fails (the caller answers 503 and a retry gets the same token; if the record is stored after all, the line applies
 * it once), whether its round is in flight or it still waits for one. A round waits for its acknowledgements only
 * until its oldest enter's deadline, an enter whose deadline passed in the queue is not sent, and a sweeper fails
 * enters whose deadline passes while the flusher is held up in a send (a producer waiting for metadata or buffer
 * space blocks there). Counting from the round instead let an enter that arrived behind a round Kafka did not
 * acknowledge wait for that round and then its own: twice the timeout (docs/RELIABILITY.md, kafka-broker-loss).
 */
final class EnterGroupCommit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EnterGroupCommit.class);

    /** How far past its deadline an enter may be answered: a few wake-ups a second, nothing per enter. */
    private static final long SWEEP_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One instance: the sweeper fails many enters at once, and a stack trace would say nothing about any of them. */
    private static final TimeoutException TIMED_OUT = new TimeoutException(
            "Kafka did not acknowledge the enter within the publish timeout") {

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final KafkaTemplate<String, Object> kafka;

    private final String topic;

    private final Duration publishTimeout;

    private final int maxEntriesPerRecord;

    private final long gatherNanos;

    private final int gatherBelow;

    /** Bounded by the caller's in-flight limit, so it never holds more than that many enters. */
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();

    private final Thread flusher;

    private final Thread sweeper;

    /** The round the flusher sends or waits for, for the sweeper; empty between rounds. Never modified. */
    private volatile List<Pending> inFlight = List.of();

    /** Per round, not per enter: what an enter waited for Kafka, at the cost of one sample per round. */
    private final Timer roundTimes;

    private final DistributionSummary roundSizes;

    private volatile boolean running = true;

    EnterGroupCommit(KafkaTemplate<String, Object> kafka, String topic, Duration publishTimeout,
            int maxEntriesPerRecord, Duration gather, int gatherBelow, MeterRegistry metrics) {
        this.kafka = kafka;
        this.roundTimes = Timer.builder("queuegate.enter.round")
            .description("From sending a group commit round to Kafka's acknowledgement of all of it")
            .publishPercentileHistogram()
            .register(metrics);
        this.roundSizes = DistributionSummary.builder("queuegate.enter.round.size")
            .description("Enters in one group commit round")
            .register(metrics);
        this.topic = topic;
        this.publishTimeout = publishTimeout;
        this.maxEntriesPerRecord = maxEntriesPerRecord;
        this.gatherNanos = gather.toNanos();
        this.gatherBelow = gatherBelow;
        this.flusher = Thread.ofPlatform().name("enter-group-commit").daemon().start(this::run);
        this.sweeper = Thread.ofPlatform().name("enter-deadlines").daemon().start(this::sweep);
    }

    /** Queues an enter for the next round; the future completes when Kafka acknowledged it, or fails. */
    CompletableFuture<Void> submit(long productId, Entry entry) {
        Pending pending = new Pending(productId, entry, new CompletableFuture<>(),
                System.nanoTime() + this.publishTimeout.toNanos());
        this.queue.add(pending);
        // after close the flusher drains the queue once more; an enter added after that drain fails here
        if (!this.running && this.queue.remove(pending)) {
            pending.done().completeExceptionally(new IllegalStateException("ingest is shutting down"));
        }
        return pending.done();
    }

    private void run() {
        List<Pending> round = new ArrayList<>();
        while (this.running) {
            try {
                round.add(this.queue.take());
                this.queue.drainTo(round);
                if (this.gatherNanos > 0 && round.size() < this.gatherBelow) {
                    // one sleep, not a wait on the queue: a wait would wake this thread once per arriving enter
                    LockSupport.parkNanos(this.gatherNanos);
                    this.queue.drainTo(round);
                }
                publish(round);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
            catch (RuntimeException ex) {
                // never leave a caller waiting: whatever went wrong, this round's enters fail and the loop goes on
                log.warn("enter round failed: {}", ex.toString());
                failAll(round, ex);
            }
            finally {
                this.inFlight = List.of();
                round.clear();
            }
        }
        List<Pending> left = new ArrayList<>();
        this.queue.drainTo(left);
        failAll(left, new IllegalStateException("ingest is shutting down"));
    }

    /**
     * Sends one round and waits for all of its acknowledgements, at most until the deadline of its oldest enter (the
     * first: the queue keeps arrival order). Enters already answered by the sweeper, or past their deadline, are not
     * sent.
     */
    private void publish(List<Pending> round) throws InterruptedException {
        long started = System.nanoTime();
        round.removeIf((pending) -> {
            if (started - pending.deadline() >= 0) {
                pending.done().completeExceptionally(TIMED_OUT);
            }
            return pending.done().isDone();
        });
        if (round.isEmpty()) {
            return;
        }
        // a copy: the sweeper reads it while this thread goes on with its own list
        this.inFlight = List.copyOf(round);
        this.roundSizes.record(round.size());
        List<CompletableFuture<?>> acks = new ArrayList<>();
        for (List<Pending> record : records(round)) {
            acks.add(send(record));
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                .get(Math.max(0, round.getFirst().deadline() - System.nanoTime()), TimeUnit.NANOSECONDS);
            this.roundTimes.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException ex) {
            // each record's own callback already failed its enters
        }
        catch (TimeoutException ex) {
            log.warn("Kafka did not acknowledge {} enters within {}", round.size(), this.publishTimeout);
            failAll(round, ex);
        }
    }

    private CompletableFuture<SendResult<String, Object>> send(List<Pending> record) {
        long productId = record.getFirst().productId();
        List<Entry> entries = new ArrayList<>(record.size());
        for (Pending pending : record) {
            entries.add(pending.entry());
        }
        try {
            return this.kafka.send(this.topic, Long.toString(productId), new EntriesRequested(productId, entries))
                .whenComplete((result, failure) -> {
                    for (Pending pending : record) {
                        if (failure == null) {
                            pending.done().complete(null);
                        }
                        else {
                            pending.done().completeExceptionally(failure);
                        }
                    }
                });
        }
        catch (RuntimeException ex) {
            failAll(record, ex);
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Fails the enters whose deadline passed, in the queue or in the round in flight, every few milliseconds. Only
     * the head of the queue is looked at: it is in arrival order, so the enters behind an enter in time are too.
     */
    private void sweep() {
        while (this.running) {
            LockSupport.parkNanos(SWEEP_INTERVAL_NANOS);
            long now = System.nanoTime();
            for (Pending pending : this.inFlight) {
                if (now - pending.deadline() >= 0) {
                    pending.done().completeExceptionally(TIMED_OUT);
                }
            }
            for (Pending head = this.queue.peek(); head != null && now - head.deadline() >= 0;
                    head = this.queue.peek()) {
                // the flusher may take it at the same moment: then it finds it answered and does not send it
                this.queue.remove(head);
                head.done().completeExceptionally(TIMED_OUT);
            }
        }
    }

    /** The round cut into records: by product, in arrival order, at most maxEntriesPerRecord each. */
    private List<List<Pending>> records(List<Pending> round) {
        Map<Long, List<Pending>> byProduct = new LinkedHashMap<>();
        for (Pending pending : round) {
            byProduct.computeIfAbsent(pending.productId(), id -> new ArrayList<>()).add(pending);
        }
        List<List<Pending>> records = new ArrayList<>();
        for (List<Pending> product : byProduct.values()) {
            for (int from = 0; from < product.size(); from += this.maxEntriesPerRecord) {
                records.add(product.subList(from, Math.min(product.size(), from + this.maxEntriesPerRecord)));
            }
        }
        return records;
    }

    private static void failAll(List<Pending> pendings, Throwable cause) {
        for (Pending pending : pendings) {
            pending.done().completeExceptionally(cause);
        }
    }

    @Override
    public void close() throws InterruptedException {
        this.running = false;
        this.flusher.interrupt();
        this.flusher.join(this.publishTimeout.toMillis() + 1_000);
        this.sweeper.join(1_000);
    }

    /** An enter and when it must be answered ({@link System#nanoTime()}): its arrival plus the publish timeout. */
    private record Pending(long productId, Entry entry, CompletableFuture<Void> done, long deadline) {
    }
}
