package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.queue.ScriptTime;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;

import org.springframework.stereotype.Component;

/**
 * Answers the status polls of one product that arrive together with one Redis call. A poll that finds no call of
 * its product in flight makes the call itself, at once, for itself and whoever queued meanwhile; polls that arrive
 * while a call is in flight queue and are read together by the next call, which one of them makes as soon as the
 * call before returns. So a poll never waits for company, and under load one round trip serves many polls.
 *
 * <p>Every poll is read by a call that starts after the poll arrived, so an answer is never older than its request:
 * positions stay exact and never rise from one poll of a user to the next, exactly as with one call per poll.
 *
 * <p>Calls are served in arrival order: a poll waits for the call in flight and for the calls of the polls queued
 * before it (one call per {@code max-batch} of them), each bounded by the Redis command timeout, and {@code max-queued}
 * bounds the queue. A failed call fails every poll it carried with the same exception (a store failure answers 503).
 */
@Component
class PollCoalescer {

    private final TokenStatusReader reader;

    private final int maxBatch;

    private final int maxQueued;

    private final Duration retryAfter;

    private final DistributionSummary batchSizes;

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

    /** The token's state, read from Redis after this call began. */
    TokenState read(Token token) {
        return this.products.computeIfAbsent(token.productId(), ProductPolls::new).read(token.userId());
    }

    private final class ProductPolls {

        private final long productId;

        private final BlockingQueue<Poll> queued = new ArrayBlockingQueue<>(PollCoalescer.this.maxQueued);

        /** Whether a call of this product is in flight; whoever sets it makes the call. */
        private final AtomicBoolean reading = new AtomicBoolean();

        ProductPolls(long productId) {
            this.productId = productId;
        }

        TokenState read(String userId) {
            Poll poll = new Poll(userId);
            if (!this.queued.offer(poll)) {
                throw ApiException.unavailable("Too many status polls at once; poll again shortly.",
                        PollCoalescer.this.retryAfter);
            }
            lead();
            return poll.await(this);
        }

        /**
         * Makes one call for the queued polls unless a call is in flight. After it, the first poll still queued is
         * asked to make the next call: it arrived during this one, and its thread is the one to wait for the answer.
         */
        void lead() {
            if (this.queued.isEmpty() || !this.reading.compareAndSet(false, true)) {
                // a call is in flight: its maker looks at the queue after it clears the flag, so nothing is stranded
                return;
            }
            try {
                List<Poll> batch = new ArrayList<>(Math.min(this.queued.size(), PollCoalescer.this.maxBatch));
                this.queued.drainTo(batch, PollCoalescer.this.maxBatch);
                if (!batch.isEmpty()) {
                    call(batch);
                }
            }
            finally {
                this.reading.set(false);
            }
            Poll next = this.queued.peek();
            if (next != null) {
                next.askToCall();
            }
        }

        private void call(List<Poll> batch) {
            List<String> userIds = new ArrayList<>(batch.size());
            for (Poll poll : batch) {
                userIds.add(poll.userId);
            }
            try {
                List<TokenState> states = PollCoalescer.this.reader.readAll(this.productId, userIds,
                        ScriptTime.REDIS_TIME);
                for (int i = 0; i < batch.size(); i++) {
                    batch.get(i).complete(states.get(i));
                }
                PollCoalescer.this.batchSizes.record(batch.size());
            }
            catch (RuntimeException | Error ex) {
                // every poll of the call is answered, whatever went wrong: a poll left waiting would wait forever
                batch.stream().filter((poll) -> !poll.done).forEach((poll) -> poll.fail(ex));
            }
        }
    }

    /** One request's poll, parked on its own thread until a call answers it or it is asked to make the call. */
    private static final class Poll {

        private final String userId;

        private final Thread thread = Thread.currentThread();

        private volatile boolean done;

        private volatile boolean asked;

        private TokenState state;

        private Throwable failure;

        Poll(String userId) {
            this.userId = userId;
        }

        void complete(TokenState state) {
            this.state = state;
            this.done = true;
            wake();
        }

        void fail(Throwable failure) {
            this.failure = failure;
            this.done = true;
            wake();
        }

        void askToCall() {
            this.asked = true;
            wake();
        }

        private void wake() {
            if (this.thread != Thread.currentThread()) {
                LockSupport.unpark(this.thread);
            }
        }

        TokenState await(ProductPolls polls) {
            boolean interrupted = false;
            while (!this.done) {
                if (this.asked) {
                    this.asked = false;
                    polls.lead();
                    continue;
                }
                LockSupport.park(this);
                // park returns at once while the flag is set; keep it for the caller, but do not spin on it
                interrupted |= Thread.interrupted();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (this.failure instanceof RuntimeException ex) {
                throw ex;
            }
            if (this.failure instanceof Error error) {
                throw error;
            }
            return this.state;
        }
    }
}
