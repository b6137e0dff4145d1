package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.Completions;
import io.queuegate.ingest.LineFixture;
import io.queuegate.web.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Polls that share Redis calls answer what one call per poll would: against the real, shared Redis (a random product,
 * its keys deleted afterwards) while the line moves, and with a reader that holds a call open to see who waits.
 */
class PollCoalescerTests {

    static final StringRedisTemplate redis = TestRedis.template();

    long product;

    QueueKeys keys;

    SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    @BeforeEach
    void newProduct() {
        this.product = LineFixture.freeProduct(redis);
        this.keys = QueueKeys.of(this.product);
    }

    @AfterEach
    void deleteProduct() {
        redis.delete(this.keys.all());
    }

    @Test
    void concurrentPollsWhileTheLineMovesSeeExactPositionsThatNeverRise() throws Exception {
        // not registered, so no admission worker on this Redis moves the line but this test
        redis.opsForHash().putAll(this.keys.settings(), Map.of("maxActive", "1000000", "admitPerSecond", "1000000",
                "entryTtlSeconds", "600", "open", "true"));
        int users = 200;
        int leavers = 10;
        List<String> line = new ArrayList<>();
        for (int i = 1; i <= users + leavers; i++) {
            line.add(String.format("u-%04d", i));
        }
        LineFixture.append(redis, this.product, line);
        Leaving remover = new Leaving(redis, TestRedis.TIMER, Keyspace.DEFAULT);
        // the leavers are at the back, so they change nobody's position
        line.subList(users, users + leavers)
            .forEach((user) -> remover.remove(new Token(this.product, user, user)));
        PollCoalescer coalescer = coalescer(128, 4096);

        // admitted so far: at least `admittedAtLeast`, at most `admittedAtMost`, whenever a poll looks
        AtomicLong admittedAtLeast = new AtomicLong();
        AtomicLong admittedAtMost = new AtomicLong();
        AtomicBoolean moving = new AtomicBoolean(true);
        List<String> violations = new CopyOnWriteArrayList<>();
        AtomicLong polls = new AtomicLong();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> admitter = threads.submit(() -> {
                Admission admission = new Admission(redis, TestRedis.TIMER, Keyspace.DEFAULT);
                while (admittedAtLeast.get() < users) {
                    admittedAtMost.addAndGet(3);
                    AdmissionResult result = admission.admit(this.product, System.currentTimeMillis(), 3);
                    admittedAtMost.addAndGet(result.admitted() - 3);
                    admittedAtLeast.addAndGet(result.admitted());
                }
                moving.set(false);
                return null;
            });
            List<Future<?>> pollers = new ArrayList<>();
            for (int u = 0; u < users + leavers + 20; u++) {
                int user = u;
                pollers.add(threads.submit(() -> {
                    // the last 20 hold tokens the line never saw
                    String token = user < line.size() ? line.get(user) : "never-entered-" + user;
                    long sequence = user + 1;
                    long last = Long.MAX_VALUE;
                    boolean wasAvailable = false;
                    do {
                        long before = admittedAtLeast.get();
                        TokenState state = coalescer.read(new Token(this.product, token, token)).join();
                        long after = admittedAtMost.get();
                        polls.incrementAndGet();
                        String seen = token + " saw " + state + " with " + before + ".." + after + " admitted";
                        if (user >= line.size()) {
                            expect(state.status() == TokenStatus.PENDING, seen, violations);
                        }
                        else if (user >= users) {
                            expect(state.status() == TokenStatus.EXPIRED, seen, violations);
                        }
                        else if (state.status() == TokenStatus.WAITING) {
                            expect(!wasAvailable, seen + " after AVAILABLE", violations);
                            expect(state.position() >= sequence - after && state.position() <= sequence - before,
                                    seen + ": not the exact position", violations);
                            expect(state.position() <= last, seen + ": rose from " + last, violations);
                            last = state.position();
                        }
                        else {
                            expect(state.status() == TokenStatus.AVAILABLE && sequence <= after
                                    && state.expiresAt() > System.currentTimeMillis(), seen, violations);
                            wasAvailable = true;
                        }
                    }
                    while (moving.get());
                    return null;
                }));
            }
            admitter.get(60, TimeUnit.SECONDS);
            for (Future<?> poller : pollers) {
                poller.get(60, TimeUnit.SECONDS);
            }
        }

        assertThat(violations).isEmpty();
        DistributionSummary batches = this.metrics.get("queuegate.status.batch").summary();
        assertThat((long) batches.totalAmount()).isEqualTo(polls.get());
        // the race is real: polls did share calls
        assertThat(batches.count()).isLessThan(polls.get());
        assertThat(batches.max()).isGreaterThan(1);
    }

    @Test
    void aLonePollMakesItsOwnCallAtOnce() {
        RecordingReader reader = new RecordingReader();
        PollCoalescer coalescer = new PollCoalescer(reader, properties(128, 4096),
                this.metrics);

        TokenState state = coalescer.read(new Token(this.product, "alone", "alone")).join();

        assertThat(state).isEqualTo(new TokenState(TokenStatus.WAITING, 5, 0, 7));
        assertThat(reader.calls).containsExactly(List.of("alone"));
        // not on the poll's thread: the front's event loop that makes a poll must never wait for Redis
        assertThat(reader.callers).hasSize(1).noneMatch((caller) -> caller == Thread.currentThread());
    }

    @Test
    void pollsArrivingDuringACallShareTheNextAndAFullQueueAnswers503() throws Exception {
        RecordingReader reader = new RecordingReader();
        reader.holdFirstCall = new CountDownLatch(1);
        PollCoalescer coalescer = coalescer(reader, 2);
        List<TokenState> answers = Collections.synchronizedList(new ArrayList<>());

        Thread first = poll(coalescer, "first", answers);
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.calls.size() == 1);
        Thread second = poll(coalescer, "second", answers);
        await().atMost(Duration.ofSeconds(10)).until(() -> second.getState() == Thread.State.WAITING);
        Thread third = poll(coalescer, "third", answers);
        await().atMost(Duration.ofSeconds(10)).until(() -> third.getState() == Thread.State.WAITING);

        // two polls wait for the next call: the queue of this product is full
        assertThatExceptionOfType(ApiException.class)
            .isThrownBy(() -> awaited(coalescer.read(new Token(this.product, "fourth", "fourth"))))
            .satisfies((ex) -> {
                assertThat(ex.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(1));
            });

        reader.holdFirstCall.countDown();
        for (Thread thread : List.of(first, second, third)) {
            thread.join(Duration.ofSeconds(10));
            assertThat(thread.isAlive()).isFalse();
        }
        assertThat(reader.calls).containsExactly(List.of("first"), List.of("second", "third"));
        assertThat(answers).hasSize(3).allMatch((state) -> state.status() == TokenStatus.WAITING);
    }

    @Test
    void aStoreThatIsDownFailsEveryPollOfTheCallWithTheStoreFailure() throws Exception {
        LettuceConnectionFactory down = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(500)).build());
        down.afterPropertiesSet();
        down.start();
        try {
            StringRedisTemplate unreachable = new StringRedisTemplate(down);
            unreachable.afterPropertiesSet();
            PollCoalescer coalescer = new PollCoalescer(
                    new TokenStatusReader(unreachable, TestRedis.TIMER, Keyspace.DEFAULT),
                    properties(128, 4096), this.metrics);
            List<Future<Throwable>> outcomes = new ArrayList<>();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 50; i++) {
                    String token = "t" + i;
                    outcomes.add(threads.submit(() -> {
                        try {
                            awaited(coalescer.read(new Token(this.product, token, token)));
                            return null;
                        }
                        catch (RuntimeException ex) {
                            return ex;
                        }
                    }));
                }
                for (Future<Throwable> outcome : outcomes) {
                    assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(DataAccessException.class);
                }
            }
        }
        finally {
            down.destroy();
        }
    }

    private PollCoalescer coalescer(int maxBatch, int maxQueued) {
        return new PollCoalescer(new TokenStatusReader(redis, TestRedis.TIMER, Keyspace.DEFAULT),
                properties(maxBatch, maxQueued), this.metrics);
    }

    private PollCoalescer coalescer(TokenStatusReader reader, int maxQueued) {
        return new PollCoalescer(reader, properties(128, maxQueued), this.metrics);
    }

    static StatusPollProperties properties(int maxBatch, int maxQueued) {
        return new StatusPollProperties(maxBatch, maxQueued, Duration.ofSeconds(1), Duration.ofSeconds(10));
    }

    private Thread poll(PollCoalescer coalescer, String token, List<TokenState> answers) {
        // platform threads: their state shows when they are parked waiting for a call
        return Thread.ofPlatform().start(() -> answers.add(coalescer.read(new Token(this.product, token, token)).join()));
    }

    private static void expect(boolean holds, String what, List<String> violations) {
        if (!holds) {
            violations.add(what);
        }
    }

    /** Answers WAITING at position 5 for every token and records each call; may hold the first call open. */
    static final class RecordingReader extends TokenStatusReader {

        final List<List<String>> calls = new CopyOnWriteArrayList<>();

        final List<Thread> callers = new CopyOnWriteArrayList<>();

        volatile CountDownLatch holdFirstCall;

        RecordingReader() {
            super(new StringRedisTemplate(), TestRedis.TIMER, Keyspace.DEFAULT);
        }

        @Override
        public List<TokenState> readAll(long productId, List<String> tokens, long nowMillis) {
            this.calls.add(List.copyOf(tokens));
            this.callers.add(Thread.currentThread());
            if (this.calls.size() == 1 && this.holdFirstCall != null) {
                try {
                    this.holdFirstCall.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return tokens.stream().map((token) -> new TokenState(TokenStatus.WAITING, 5, 0, 7)).toList();
        }
    }

    /** The future's value, waited for; a failure is rethrown as itself (an ApiException stays one). */
    private static <T> T awaited(CompletableFuture<T> future) {
        try {
            return future.join();
        }
        catch (CompletionException ex) {
            throw Completions.rethrowable(ex);
        }
    }
}
