package io.queuegate.ingest.enter;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.event.EntriesRequested.Entry;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.Completions;
import io.queuegate.ingest.EntriesPaths;
import io.queuegate.web.ApiException;

import org.springframework.stereotype.Component;

/**
 * An enter, whichever route took it: the queue must be open, the entrant who the queue's identity says
 * ({@link Entrants}), its proof good when it asks for one, the token is issued (in the lane a pass grants), and the
 * answer completes once
 * Kafka holds the enter event. Counts every enter by outcome ({@code queuegate.enters}).
 */
@Component
class Enters {

    /**
     * Where the first enter of a queue ingest does not know yet reads the queue from Redis: a virtual thread of its
     * own, so that no caller (an event loop above all) ever waits on Redis for an enter.
     */
    private static final Executor QUEUE_READS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("queue-read-", 0).factory());

    /** What {@link ProofOfWork#spend} returns for no proof at all: nothing to give back. */
    private static final long NO_PROOF = Long.MIN_VALUE;

    private final TokenCodec tokens;

    private final Entrants entrants;

    private final QueueDirectory queues;

    private final EnterPublisher publisher;

    private final MeterRegistry metrics;

    private final Counter accepted;

    private final ProofOfWork proofOfWork;

    Enters(TokenCodec tokens, Entrants entrants, QueueDirectory queues, ProofOfWork proofOfWork,
            EnterPublisher publisher, MeterRegistry metrics) {
        this.tokens = tokens;
        this.entrants = entrants;
        this.queues = queues;
        this.proofOfWork = proofOfWork;
        this.publisher = publisher;
        this.metrics = metrics;
        this.accepted = metrics.counter("queuegate.enters", "outcome", "accepted");
    }

    /**
     * Enters the user; completes with the answer once Kafka acknowledged the event, or fails with the
     * {@link ApiException} to answer. Never blocks: the queue's state is read from Redis, on a thread of its own, only
     * when ingest does not know the queue yet.
     */
    CompletableFuture<EntryAccepted> enter(long productId, EnterRequest request, String authorization,
            String requestId) {
        if (!this.queues.knows(productId)) {
            return CompletableFuture.supplyAsync(() -> enterKnown(productId, request, authorization, requestId),
                    QUEUE_READS).thenCompose((accepted) -> accepted);
        }
        return enterKnown(productId, request, authorization, requestId);
    }

    private CompletableFuture<EntryAccepted> enterKnown(long productId, EnterRequest request, String authorization,
            String requestId) {
        Token token;
        long spent;
        try {
            QueueDirectory.Door door = this.queues.requireOpen(productId);
            // who enters before the proof: a refused key or pass must not use up a good proof
            Entrants.Entrant entrant = this.entrants.entrant(productId, door, request, authorization);
            spent = door.asksForProof() && !entrant.returning()
                    ? this.proofOfWork.spend(productId, entrant.boundTo(), request.proof()) : NO_PROOF;
            token = this.tokens.issue(productId, entrant.userId(), entrant.lane());
        }
        catch (ApiException ex) {
            return CompletableFuture.failedFuture(counted(ex));
        }
        Entry entry = new Entry(token.value(), token.userId(), requestId, System.currentTimeMillis());
        return this.publisher.publish(productId, entry).handle((stored, failure) -> {
            if (failure != null) {
                if (spent != NO_PROOF) {
                    this.proofOfWork.giveBack(spent);
                }
                throw counted(Completions.rethrowable(failure));
            }
            this.accepted.increment();
            return new EntryAccepted(token.value(), token.userId(), productId, TokenStatus.PENDING);
        });
    }

    /** Where the entry's status is polled: the Location of the 202. */
    static String location(EntryAccepted accepted) {
        return EntriesPaths.location(accepted.productId(), accepted.token());
    }

    /** Counts a refused enter by its problem code; other failures are not an outcome the client is told. */
    private RuntimeException counted(RuntimeException failure) {
        if (failure instanceof ApiException refusal) {
            this.metrics.counter("queuegate.enters", "outcome", refusal.code()).increment();
        }
        return failure;
    }
}
