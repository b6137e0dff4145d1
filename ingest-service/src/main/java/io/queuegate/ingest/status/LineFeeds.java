package io.queuegate.ingest.status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Reads the places followed by event streams, a product at a time: at every step, the places of a product that are due
 * are read together, through the {@link PollCoalescer} that answers polls, so one Redis call (in calls of at most
 * {@code max-batch} users, and together with the product's polls queued meanwhile) serves every stream of the product
 * due at that step, however many there are. A place is due again when {@link PollPolicy#streamReadAfterMs} says:
 * every step near the front, where an admission must be told within a step, rarely far back.
 *
 * <p>The step runs on one timer thread, which only picks the due places and queues their reads; the reads run on the
 * coalescer's call threads, and each answer goes to its stream from there.
 */
@Component
class LineFeeds implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LineFeeds.class);

    /** How long the reads of a place may fail before its stream is ended (the client then reconnects). */
    static final long FAILING_FOR_MILLIS = 10_000;

    private static final long RETRY_MILLIS = 1_000;

    private static final Comparator<Follower> FRONT_FIRST = Comparator.comparingLong((follower) -> follower.position);

    private final PollCoalescer statuses;

    private final long stepMillis;

    /** The followed places of each product with at least one; a product leaves the map with its last follower. */
    private final ConcurrentHashMap<Long, Set<Follower>> products = new ConcurrentHashMap<>();

    private final Counter reads;

    private final Counter steps;

    private volatile ScheduledExecutorService timer;

    private ScheduledFuture<?> stepping;

    LineFeeds(PollCoalescer statuses, StreamProperties properties, MeterRegistry metrics) {
        this.statuses = statuses;
        this.stepMillis = Math.max(1, properties.step().toMillis());
        this.reads = Counter.builder("queuegate.streams.reads")
            .description("Places read for event streams")
            .register(metrics);
        this.steps = Counter.builder("queuegate.streams.product_steps")
            .description("Steps of a product with places due, each read together")
            .register(metrics);
        metrics.gaugeMapSize("queuegate.streams.products", List.of(), this.products);
    }

    /**
     * Reads the token's state at the next step and then whenever it is due again, and hands each to {@code states},
     * until the returned handle is disposed. A read that fails is tried again a second later; once the reads have
     * failed for {@link #FAILING_FOR_MILLIS}, the last failure (an {@link ApiException} 503 when the store does not
     * answer) goes to {@code failures}. Both are called on the coalescer's call threads, one
     * at a time for a place.
     */
    Disposable follow(Token token, Consumer<TokenState> states, Consumer<Throwable> failures) {
        Follower follower = new Follower(token.productId(), token.userId(), states, failures);
        this.products.compute(token.productId(), (id, followers) -> {
            Set<Follower> set = followers != null ? followers : ConcurrentHashMap.newKeySet();
            set.add(follower);
            return set;
        });
        return () -> unfollow(token.productId(), follower);
    }

    private void unfollow(long productId, Follower follower) {
        this.products.computeIfPresent(productId, (id, followers) -> {
            followers.remove(follower);
            return followers.isEmpty() ? null : followers;
        });
    }

    /**
     * Someone of the product's line was just admitted ({@link AdmissionNews}): its places due are read now, on the
     * step's thread, rather than at the next step. Those not due cannot have been admitted yet, by the line's
     * settings, and wait for their turn.
     */
    void admitted(long productId) {
        readNow(productId, true);
    }

    /** Reads the product's places due now, on the step's thread, between steps. */
    private void readNow(long productId, boolean onNews) {
        ScheduledExecutorService stepper = this.timer;
        if (stepper == null || !this.products.containsKey(productId)) {
            return;
        }
        try {
            stepper.execute(() -> {
                Set<Follower> followers = this.products.get(productId);
                if (followers != null) {
                    readDue(productId, followers, System.currentTimeMillis(), onNews);
                }
            });
        }
        catch (RejectedExecutionException ex) {
            // stopping: the streams end with the service
        }
    }

    /** Places followed now, at this instance. */
    int followed() {
        return this.products.values().stream().mapToInt(Set::size).sum();
    }

    /** One step: for each product, the places due are read together. */
    private void step() {
        try {
            long now = System.currentTimeMillis();
            this.products.forEach((productId, followers) -> readDue(productId, followers, now, false));
        }
        catch (RuntimeException ex) {
            // a failed step must not end the timer's schedule, which would silence every stream
            log.warn("A step of the event streams failed: {}", ex.toString());
        }
    }

    /** @param onNews whether an admission was just announced: a place being read may be told what it began before */
    private void readDue(long productId, Set<Follower> followers, long now, boolean onNews) {
        List<Follower> due = new ArrayList<>();
        for (Follower follower : followers) {
            if (follower.readAt > now) {
                continue;
            }
            if (follower.reading.compareAndSet(false, true)) {
                due.add(follower);
            }
            else if (onNews) {
                follower.readAgain = true;
            }
        }
        if (due.isEmpty()) {
            return;
        }
        // the front first: the reads go out in calls of max-batch users, one after another, and a place that may be
        // admitted at any moment must not wait behind places seconds from their turn
        due.sort(FRONT_FIRST);
        List<String> userIds = new ArrayList<>(due.size());
        for (Follower follower : due) {
            userIds.add(follower.userId);
        }
        this.steps.increment();
        this.reads.increment(due.size());
        List<CompletableFuture<TokenState>> states = this.statuses.readAll(productId, userIds);
        for (int i = 0; i < due.size(); i++) {
            Follower follower = due.get(i);
            states.get(i).whenComplete(follower::answer);
        }
    }

    @Override
    public void start() {
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("line-feed-step").daemon(true).factory());
        this.stepping = this.timer.scheduleWithFixedDelay(this::step, this.stepMillis, this.stepMillis,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        this.stepping.cancel(false);
        this.timer.shutdownNow();
        this.timer = null;
    }

    @Override
    public boolean isRunning() {
        return this.timer != null;
    }

    /** A followed place: who, where its states go, and when it is due to be read again. */
    private final class Follower {

        final long productId;

        final String userId;

        final Consumer<TokenState> states;

        final Consumer<Throwable> failures;

        /** Epoch milliseconds from which the place is due; due at once when it starts being followed. */
        volatile long readAt;

        /** Whether a read of the place is queued or in flight: a slow read is not joined by another. */
        final AtomicBoolean reading = new AtomicBoolean();

        /**
         * Whether an admission was announced while the place was being read: the read may have begun before the
         * admission, so a place still waiting is read again at once.
         */
        volatile boolean readAgain;

        /** The place's position at its last read: 0 before the first and once it is no longer waiting. */
        volatile long position;

        /** When the reads of the place began to fail, 0 while they succeed. */
        long failingSince;

        Follower(long productId, String userId, Consumer<TokenState> states, Consumer<Throwable> failures) {
            this.productId = productId;
            this.userId = userId;
            this.states = states;
            this.failures = failures;
        }

        void answer(TokenState state, Throwable failure) {
            long now = System.currentTimeMillis();
            if (failure != null) {
                if (this.failingSince == 0) {
                    this.failingSince = now;
                }
                if (failure instanceof PollCoalescer.Crowded || now - this.failingSince < FAILING_FOR_MILLIS) {
                    // a crowded coalescer or a store that stalls a moment: the place is read again a second later,
                    // and the stream stays open rather than send all its clients back at once
                    this.readAt = now + RETRY_MILLIS;
                    this.reading.set(false);
                    return;
                }
                this.failures.accept(failure);
                return;
            }
            this.failingSince = 0;
            this.position = state.position();
            Long after = PollPolicy.streamReadAfterMs(state, now, LineFeeds.this.stepMillis);
            // a step less: the answer comes some milliseconds into a step, and a place due every step must be due
            // at the next one, not at the one after
            this.readAt = now + (after != null ? after : PollPolicy.MAX_POLL_MS) - LineFeeds.this.stepMillis;
            boolean again = this.readAgain && state.status() == TokenStatus.WAITING;
            this.readAgain = false;
            if (again) {
                this.readAt = now;
            }
            this.reading.set(false);
            this.states.accept(state);
            if (again) {
                // not as news, which would have the reads in flight read again in turn, and theirs, without end
                readNow(this.productId, false);
            }
        }
    }
}
