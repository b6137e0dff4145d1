package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.testing.PrivateRedis;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.Completions;
import io.queuegate.ingest.LineFixture;
import io.queuegate.web.ApiException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every poll is answered within the coalescer's deadline, whatever Redis or the calls do: a Redis paused with
 * {@code CLIENT PAUSE} and then frozen with SIGSTOP in the middle of a stream of polls (a private {@code redis-server},
 * so the shared one is never stalled), a call that never returns, and calls that end while new polls arrive.
 */
class PollDeadlineTests {

    static final Duration DEADLINE = Duration.ofMillis(1500);

    /** The timer's tick, the scheduling of the answering thread and this test's own clock. */
    static final Duration SLACK = Duration.ofMillis(300);

    SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    @Test
    void whileRedisIsPausedAndThenFrozenMidStreamEveryPollIsAnsweredWithinTheDeadline() throws Exception {
        try (PrivateRedis redis = PrivateRedis.start()) {
            // the services' command timeout
            StringRedisTemplate template = redis.template(Duration.ofSeconds(1));
            long product = 42;
            List<String> line = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                line.add("u-" + i);
            }
            LineFixture.openUnregistered(template, product, 1, 1);
            LineFixture.append(template, product, line);
            try (PollCoalescer coalescer = new PollCoalescer(
                    new TokenStatusReader(template, TestRedis.TIMER, Keyspace.DEFAULT),
                    new StatusPollProperties(16, 4096, Duration.ofSeconds(1), DEADLINE), this.metrics)) {
                List<Outcome> outcomes = new CopyOnWriteArrayList<>();
                AtomicBoolean polling = new AtomicBoolean(true);
                try (ExecutorService pollers = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int p = 0; p < 64; p++) {
                        pollers.submit(() -> {
                            while (polling.get()) {
                                String user = line.get(ThreadLocalRandom.current().nextInt(line.size()));
                                outcomes.add(Outcome.of(user, coalescer.read(new Token(product, user, user))));
                            }
                            return null;
                        });
                    }
                    Thread.sleep(500);
                    int beforeStall = outcomes.size();
                    redis.pause(Duration.ofMillis(2500));
                    Thread.sleep(3000);
                    redis.freeze();
                    try {
                        Thread.sleep(3000);
                    }
                    finally {
                        redis.thaw();
                    }
                    // long enough after the thaw for Lettuce's connection to carry answers again
                    Thread.sleep(2000);
                    polling.set(false);
                    assertThat(beforeStall).as("polls answered before the stall").isGreaterThan(100);
                }

                List<Outcome> unanswered = outcomes.stream().filter(Outcome::unanswered).toList();
                assertThat(unanswered).as("polls with no answer at all").isEmpty();
                Duration slowest = outcomes.stream().map(Outcome::waited).max(Duration::compareTo).orElseThrow();
                assertThat(slowest).as("the slowest answer").isLessThanOrEqualTo(DEADLINE.plus(SLACK));
                // the stall was real: polls were refused meanwhile, with 503 and Retry-After
                List<Outcome> refused = outcomes.stream().filter(Outcome::refused).toList();
                assertThat(refused).isNotEmpty().allMatch(Outcome::unavailableWithRetryAfter);
                assertThat(this.metrics.get("queuegate.status.late").counter().count()).isPositive();
                // and after it every poll is answered with the user's place again
                Outcome last = outcomes.getLast();
                assertThat(last.state()).isNotNull();
                assertThat(last.state().status()).isEqualTo(TokenStatus.WAITING);
                assertThat(last.state().position()).isEqualTo(line.indexOf(last.user()) + 1);
            }
        }
    }

    @Test
    void aCallThatNeverReturnsLeavesNoPollWaitingPastTheDeadline() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        TokenStatusReader hangs = new TokenStatusReader(new StringRedisTemplate(), TestRedis.TIMER, Keyspace.DEFAULT) {
            @Override
            public List<TokenState> readAll(long productId, List<String> userIds, long nowMillis) {
                calls.incrementAndGet();
                try {
                    release.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                return userIds.stream().map((user) -> new TokenState(TokenStatus.WAITING, 1, 0, 0)).toList();
            }
        };
        try (PollCoalescer coalescer = new PollCoalescer(hangs,
                new StatusPollProperties(4, 4096, Duration.ofSeconds(1), DEADLINE), this.metrics)) {
            long started = System.nanoTime();
            List<CompletableFuture<TokenState>> polls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                polls.add(coalescer.read(new Token(7, "u" + i, "u" + i)));
            }
            for (CompletableFuture<TokenState> poll : polls) {
                Outcome outcome = Outcome.of("u", poll);
                assertThat(outcome.refused()).isTrue();
                assertThat(outcome.unavailableWithRetryAfter()).isTrue();
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThanOrEqualTo(DEADLINE.plus(SLACK));
            // one call hangs; the 49 queued behind it were answered without one of their own
            assertThat(calls.get()).isEqualTo(1);
            release.countDown();
            // once the call returns, the queued polls it finds already answered cost Redis nothing
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> calls.get() == 1);
            assertThat(coalescer.read(new Token(7, "after", "after")).get(5, TimeUnit.SECONDS).status())
                .isEqualTo(TokenStatus.WAITING);
        }
    }

    @Test
    void pollsArrivingWhileCallsEndAreNeverStranded() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        TokenStatusReader quick = new TokenStatusReader(new StringRedisTemplate(), TestRedis.TIMER, Keyspace.DEFAULT) {
            @Override
            public List<TokenState> readAll(long productId, List<String> userIds, long nowMillis) {
                calls.incrementAndGet();
                // a round trip of 0-100 µs, so calls end while polls arrive, again and again
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000));
                return userIds.stream().map((user) -> new TokenState(TokenStatus.WAITING, 3, 0, 0)).toList();
            }
        };
        // a deadline far above any call here: a poll it answers was stranded by the hand-off
        Duration deadline = Duration.ofSeconds(2);
        try (PollCoalescer coalescer = new PollCoalescer(quick,
                new StatusPollProperties(8, 4096, Duration.ofSeconds(1), deadline), this.metrics)) {
            AtomicBoolean polling = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            List<String> stranded = new CopyOnWriteArrayList<>();
            try (ExecutorService pollers = Executors.newFixedThreadPool(8)) {
                List<Future<?>> running = new ArrayList<>();
                for (int p = 0; p < 8; p++) {
                    int poller = p;
                    running.add(pollers.submit(() -> {
                        while (polling.get()) {
                            Outcome outcome = Outcome.of("p" + poller, coalescer.read(new Token(9, "p" + poller,
                                    "p" + poller)));
                            if (outcome.state() == null) {
                                stranded.add(outcome.toString());
                            }
                            answered.incrementAndGet();
                        }
                        return null;
                    }));
                }
                Thread.sleep(4000);
                polling.set(false);
                for (Future<?> poller : running) {
                    poller.get(10, TimeUnit.SECONDS);
                }
            }
            assertThat(stranded).isEmpty();
            assertThat(this.metrics.get("queuegate.status.late").counter().count()).isZero();
            // the race was real: many calls, and polls that shared them
            assertThat(calls.get()).isGreaterThan(1000).isLessThan(answered.get());
        }
    }

    @Test
    void pollsOfManyDistinctProductsKeepABoundedNumberOfLines() {
        TokenStatusReader instant = new TokenStatusReader(new StringRedisTemplate(), TestRedis.TIMER,
                Keyspace.DEFAULT) {
            @Override
            public List<TokenState> readAll(long productId, List<String> userIds, long nowMillis) {
                return userIds.stream().map((user) -> new TokenState(TokenStatus.PENDING, 0, 0, 0)).toList();
            }
        };
        try (PollCoalescer coalescer = new PollCoalescer(instant,
                new StatusPollProperties(8, 4096, Duration.ofSeconds(1), DEADLINE), this.metrics)) {
            int products = 20 * PollCoalescer.MAX_PRODUCTS;
            List<CompletableFuture<TokenState>> polls = new ArrayList<>(products);
            for (long product = 1; product <= products; product++) {
                polls.add(coalescer.read(new Token(product, "u", "u")));
            }
            CompletableFuture.allOf(polls.toArray(CompletableFuture[]::new)).join();
            assertThat(coalescer.productLines()).isLessThanOrEqualTo(PollCoalescer.MAX_PRODUCTS);
        }
    }

    /** How one poll ended: its state or its failure, and how long it waited. */
    record Outcome(String user, TokenState state, Throwable failure, Duration waited) {

        /** Waits for the poll, far longer than any deadline here, and records how it ended. */
        static Outcome of(String user, CompletableFuture<TokenState> poll) {
            long started = System.nanoTime();
            try {
                TokenState state = poll.get(30, TimeUnit.SECONDS);
                return new Outcome(user, state, null, Duration.ofNanos(System.nanoTime() - started));
            }
            catch (ExecutionException ex) {
                return new Outcome(user, null, Completions.cause(ex), Duration.ofNanos(System.nanoTime() - started));
            }
            catch (TimeoutException ex) {
                return new Outcome(user, null, ex, Duration.ofNanos(System.nanoTime() - started));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }

        boolean unanswered() {
            return this.failure instanceof TimeoutException;
        }

        boolean refused() {
            return this.state == null && !unanswered();
        }

        /** What the front answers 503 with Retry-After: the deadline's refusal, or the store failure Lettuce threw. */
        boolean unavailableWithRetryAfter() {
            if (this.failure instanceof ApiException refusal) {
                return refusal.status() == HttpStatus.SERVICE_UNAVAILABLE && refusal.retryAfter() != null;
            }
            return this.failure instanceof DataAccessException;
        }
    }
}
