package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;

import org.springframework.stereotype.Component;

/**
 * Answers the status polls of one product that arrive together with one Redis call. A poll that finds no call of
 * its product in flight starts one at once, for itself and whoever queued meanwhile; polls that arrive while a call
 * is in flight queue and are read together by the next call, which starts as soon as the call before returns. So a
 * poll never waits for company, and under load one round trip serves many polls.
 *
 * <p>Every poll is read by a call that starts after the poll arrived, so an answer is never older than its request:
 * positions stay exact and never rise from one poll of a user to the next, exactly as with one call per poll.
 *
 * <p>Nothing here blocks the caller: a poll is a future, completed by the call that read it. The calls themselves
 * run one at a time per product on a virtual thread each, so neither the HTTP front's event loops nor Lettuce's wait
 * for Redis. Calls are served in arrival order: a poll waits for the call in flight and for the calls of the polls
 * queued before it (one call per {@code max-batch} of them), each bounded by the Redis command timeout, and
 * {@code max-queued} bounds the queue. A failed call fails every poll it carried with the same exception (a store
 * failure answers 503).
 */
@Component
class PollCoalescer {

    private final TokenStatusReader reader;

    private final int maxBatch;

    private final int maxQueued;

    private final Duration retryAfter;

    private final DistributionSummary batchSizes;

    private final Executor calls = (call) -> Thread.ofVirtual().name("status-call").start(call);

    /** One line of polls per product; products come from verified tokens, so only ones this service issued. */
    private final Map<Long, ProductPolls> products = new ConcurrentHashMap<>();

    PollCoalescer(TokenStatusReader reader, StatusPollProperties properties, MeterRegistry metrics) {
        this.reader = reader;
        this.maxBatch = properties.maxBatch();
        this.maxQueued = properties.maxQueued();
        this.retryAfter = properties.retryAfter();
        this.batchSizes = DistributionSummary.builder("queuegate.status.batch")
            .description("Status polls answered by one read_status call")
            .register(metrics);
    }

    /** The token's state, read from Redis by a call that starts after this one was made. */
    CompletableFuture<TokenState> read(Token token) {
        return this.products.computeIfAbsent(token.productId(), ProductPolls::new).read(token.userId());
    }

    private final class ProductPolls {

        private final long productId;

        private final BlockingQueue<Poll> queued = new ArrayBlockingQueue<>(PollCoalescer.this.maxQueued);

        /** Whether a call of this product is in flight; whoever sets it starts the call. */
        private final AtomicBoolean reading = new AtomicBoolean();

        ProductPolls(long productId) {
            this.productId = productId;
        }

        CompletableFuture<TokenState> read(String userId) {
            Poll poll = new Poll(userId, new CompletableFuture<>());
            if (!this.queued.offer(poll)) {
                return CompletableFuture.failedFuture(ApiException.unavailable(
                        "Too many status polls at once; poll again shortly.", PollCoalescer.this.retryAfter));
            }
            lead();
            return poll.state();
        }

        /**
         * Starts one call for the queued polls unless a call is in flight. The call's end looks at the queue again,
         * so a poll that queued while the flag was set is never stranded.
         */
        private void lead() {
            if (this.queued.isEmpty() || !this.reading.compareAndSet(false, true)) {
                return;
            }
            List<Poll> batch = new ArrayList<>(Math.min(this.queued.size(), PollCoalescer.this.maxBatch));
            this.queued.drainTo(batch, PollCoalescer.this.maxBatch);
            try {
                PollCoalescer.this.calls.execute(() -> {
                    Runnable answers;
                    try {
                        answers = call(batch);
                    }
                    finally {
                        this.reading.set(false);
                    }
                    // the next call starts before this one's polls are answered, not after their answers are written
                    try {
                        lead();
                    }
                    finally {
                        answers.run();
                    }
                });
            }
            catch (RuntimeException | Error ex) {
                // no thread for the call: its polls fail rather than wait forever
                batch.forEach((poll) -> poll.state().completeExceptionally(ex));
                this.reading.set(false);
                throw ex;
            }
        }

        /** Reads the batch; what it returns answers the batch's polls, with their states or with the failure. */
        private Runnable call(List<Poll> batch) {
            List<String> userIds = new ArrayList<>(batch.size());
            for (Poll poll : batch) {
                userIds.add(poll.userId());
            }
            try {
                List<TokenState> states = PollCoalescer.this.reader.readAll(this.productId, userIds,
                        ScriptTime.REDIS_TIME);
                PollCoalescer.this.batchSizes.record(batch.size());
                return () -> {
                    for (int i = 0; i < batch.size(); i++) {
                        batch.get(i).state().complete(states.get(i));
                    }
                };
            }
            catch (RuntimeException | Error ex) {
                // every poll of the call is answered, whatever went wrong: a poll left waiting would wait forever
                return () -> batch.forEach((poll) -> poll.state().completeExceptionally(ex));
            }
        }
    }

    /** One request's poll: the user it asks about and the state that answers it. */
    private record Poll(String userId, CompletableFuture<TokenState> state) {
    }
}
