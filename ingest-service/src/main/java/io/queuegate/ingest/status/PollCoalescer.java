package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;

import org.springframework.http.HttpStatus;
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
 * for Redis. Calls are served in arrival order, and {@code max-queued} bounds the queue. A failed call fails every
 * poll it carried with the same exception (a store failure answers 503).
 *
 * <p>Every poll is answered within {@code deadline}, whatever Redis or the calls do: a timer of its own, on a thread
 * of its own, answers 503 with {@code Retry-After} to a poll no call answered in time (a Redis that stalls past the
 * command timeout, polls queued behind several slow calls, a call thread that never got to run). A call skips the
 * polls already answered that way, so a stalled Redis is not sent work nobody waits for.
 */
@Component
class PollCoalescer implements AutoCloseable {

    /** Products with a line of polls at once; beyond it the least recently polled one is dropped. */
    static final int MAX_PRODUCTS = 10_000;

    /** The timer's resolution: a late poll is answered at most this much after its deadline. */
    private static final long DEADLINE_TICK_MILLIS = 10;

    private final TokenStatusReader reader;

    private final int maxBatch;

    private final int maxQueued;

    private final Duration retryAfter;

    private final long deadlineNanos;

    private final String lateDetail;

    private final DistributionSummary batchSizes;

    private final Counter late;

    private final Executor calls = (call) -> Thread.ofVirtual().name("status-call").start(call);

    /** One O(1) slot per pending poll, on one platform thread: cheap beside the poll itself. */
    private final HashedWheelTimer deadlines = new HashedWheelTimer(
            Thread.ofPlatform().name("status-poll-deadline").daemon(true).factory(), DEADLINE_TICK_MILLIS,
            TimeUnit.MILLISECONDS, 512);

    /**
     * One line of polls per product polled lately. Products come from verified tokens, so only queues this service
     * issued tokens for; an idle product's line is dropped, and there are at most {@link #MAX_PRODUCTS} (a line
     * holds no more than its pending polls, so the bound is about 200 bytes per product beside them).
     */
    private final Cache<Long, ProductPolls> products = Caffeine.newBuilder()
        .maximumSize(MAX_PRODUCTS)
        .expireAfterAccess(Duration.ofMinutes(1))
        .build();

    PollCoalescer(TokenStatusReader reader, StatusPollProperties properties, MeterRegistry metrics) {
        this.reader = reader;
        this.maxBatch = properties.maxBatch();
        this.maxQueued = properties.maxQueued();
        this.retryAfter = properties.retryAfter();
        this.deadlineNanos = properties.deadline().toNanos();
        this.lateDetail = "The queue store did not answer within " + properties.deadline().toMillis()
                + " ms; poll again shortly.";
        this.batchSizes = DistributionSummary.builder("queuegate.status.batch")
            .description("Status polls answered by one read_status call")
            .register(metrics);
        this.late = Counter.builder("queuegate.status.late")
            .description("Status polls answered 503 because no Redis call answered them within the deadline")
            .register(metrics);
    }

    /**
     * The token's state, read from Redis by a call that starts after this one was made; within the deadline, or
     * failed with a 503 {@link ApiException} once it passed.
     */
    CompletableFuture<TokenState> read(Token token) {
        return this.products.get(token.productId(), ProductPolls::new).read(token.userId());
    }

    /**
     * The states of several users of one product, read together: all are queued before a call starts, so the call
     * that carries the first carries the rest (up to {@code max-batch} a call), with whatever polls of the product
     * queued meanwhile. One future a user, in the order given; each fails on its own as a poll would (past
     * {@code max-queued}, past the deadline).
     */
    List<CompletableFuture<TokenState>> readAll(long productId, List<String> userIds) {
        ProductPolls polls = this.products.get(productId, ProductPolls::new);
        List<CompletableFuture<TokenState>> states = new ArrayList<>(userIds.size());
        for (String userId : userIds) {
            states.add(polls.queue(userId));
        }
        polls.lead();
        return states;
    }

    /** How many products have a line of polls now. */
    long productLines() {
        this.products.cleanUp();
        return this.products.estimatedSize();
    }

    @Override
    public void close() {
        this.deadlines.stop().forEach((pending) -> {
            if (pending.task() instanceof Poll poll) {
                poll.fail(ApiException.unavailable("ingest is shutting down", this.retryAfter));
            }
        });
    }

    private final class ProductPolls {

        private final long productId;

        /**
         * Unbounded in itself and empty when idle (a bounded array queue held 16 KB per product polled once);
         * {@code size} bounds it at {@code max-queued}.
         */
        private final Queue<Poll> queued = new ConcurrentLinkedQueue<>();

        private final AtomicInteger size = new AtomicInteger();

        /** Whether a call of this product is in flight; whoever sets it starts the call. */
        private final AtomicBoolean reading = new AtomicBoolean();

        ProductPolls(long productId) {
            this.productId = productId;
        }

        CompletableFuture<TokenState> read(String userId) {
            CompletableFuture<TokenState> state = queue(userId);
            lead();
            return state;
        }

        /** Queues one poll without starting a call: {@link #lead()} must follow. */
        CompletableFuture<TokenState> queue(String userId) {
            Poll poll = new Poll(userId);
            poll.deadline = PollCoalescer.this.deadlines.newTimeout(poll, PollCoalescer.this.deadlineNanos,
                    TimeUnit.NANOSECONDS);
            if (this.size.incrementAndGet() > PollCoalescer.this.maxQueued) {
                this.size.decrementAndGet();
                poll.deadline.cancel();
                return CompletableFuture.failedFuture(new Crowded(PollCoalescer.this.retryAfter));
            }
            this.queued.offer(poll);
            return poll.state;
        }

        /**
         * Starts one call for the queued polls unless a call is in flight. The call's end looks at the queue again,
         * so a poll that queued while the flag was set is never stranded.
         */
        private void lead() {
            if (this.queued.isEmpty() || !this.reading.compareAndSet(false, true)) {
                return;
            }
            List<Poll> batch = new ArrayList<>(Math.min(this.size.get(), PollCoalescer.this.maxBatch));
            for (Poll next; batch.size() < PollCoalescer.this.maxBatch && (next = this.queued.poll()) != null;) {
                batch.add(next);
            }
            this.size.addAndGet(-batch.size());
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
                // no thread for the call: its polls fail rather than wait for their deadline
                batch.forEach((poll) -> poll.fail(ex));
                this.reading.set(false);
                throw ex;
            }
        }

        /** Reads the batch; what it returns answers the batch's polls, with their states or with the failure. */
        private Runnable call(List<Poll> batch) {
            List<Poll> waiting = new ArrayList<>(batch.size());
            List<String> userIds = new ArrayList<>(batch.size());
            for (Poll poll : batch) {
                // a poll already answered (its deadline passed) costs Redis nothing
                if (!poll.state.isDone()) {
                    waiting.add(poll);
                    userIds.add(poll.userId);
                }
            }
            if (waiting.isEmpty()) {
                return () -> { };
            }
            try {
                List<TokenState> states = PollCoalescer.this.reader.readAll(this.productId, userIds,
                        ScriptTime.REDIS_TIME);
                PollCoalescer.this.batchSizes.record(waiting.size());
                return () -> {
                    for (int i = 0; i < waiting.size(); i++) {
                        waiting.get(i).answer(states.get(i));
                    }
                };
            }
            catch (RuntimeException | Error ex) {
                return () -> waiting.forEach((poll) -> poll.fail(ex));
            }
        }
    }

    /** A poll refused because {@code max-queued} polls of its product wait already: 503, poll again shortly. */
    static final class Crowded extends ApiException {

        Crowded(Duration retryAfter) {
            super(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.UNAVAILABLE,
                    "Too many status polls at once; poll again shortly.", retryAfter);
        }
    }

    /** One request's poll: the user it asks about, the state that answers it, and the timer that bounds its wait. */
    private final class Poll implements TimerTask {

        final String userId;

        final CompletableFuture<TokenState> state = new CompletableFuture<>();

        /** Set before the poll is queued, so before anything can answer it (the queue publishes it). */
        Timeout deadline;

        Poll(String userId) {
            this.userId = userId;
        }

        void answer(TokenState answer) {
            this.state.complete(answer);
            this.deadline.cancel();
        }

        void fail(Throwable failure) {
            this.state.completeExceptionally(failure);
            this.deadline.cancel();
        }

        /** The deadline passed without an answer. */
        @Override
        public void run(Timeout timeout) {
            if (this.state.completeExceptionally(ApiException.unavailable(PollCoalescer.this.lateDetail,
                    PollCoalescer.this.retryAfter))) {
                PollCoalescer.this.late.increment();
            }
        }
    }
}
