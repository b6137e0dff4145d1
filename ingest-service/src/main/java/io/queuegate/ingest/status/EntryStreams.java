package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;

/**
 * A place told as Server-Sent Events instead of polls: an event when its status, its position band or its ETA band
 * changes, and the last one when the place is gone (EXPIRED: left, used, expired). Each event's id names what it
 * said, so a client that reconnects with {@code Last-Event-ID} is not told it again. An admitted place is still
 * followed: the stock can run out under it (SOLD_OUT, told at the next read) and come back within the admission
 * (AVAILABLE again), and its client must not be left offering a booking the counter refuses.
 *
 * <p>The places are read by {@link LineFeeds}: at each step, the places of a product that are due are read in one
 * Redis call for all its streams, through the same {@link PollCoalescer} as polls; a place near the front is due at
 * every step, so its admission is told within about a step, one far back about as often as its poll would be told,
 * and never sooner than the poll budget allows, so {@code maxPollsPerSecond} stays the bound on Redis work. Past
 * {@code max-per-product} open streams, a new one is told to poll instead: one event {@code poll}, then closed.
 * A read that fails closes the stream with a {@code problem} event and the retry the client waits before it
 * reconnects.
 */
@Component
class EntryStreams implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EntryStreams.class);

    /** Positions and ETAs are told exactly up to this, then to two significant digits, as a page shows them. */
    private static final long EXACT_BELOW = 100;

    private final PollCoalescer statuses;

    private final LineFeeds feeds;

    private final StatusAnswers answers;

    private final StreamProperties properties;

    /** Open streams per product with any; a product leaves with its last stream. */
    private final ConcurrentHashMap<Long, Integer> open = new ConcurrentHashMap<>();

    private final AtomicInteger openTotal = new AtomicInteger();

    private final Counter redirected;

    /**
     * Ends every stream when the service stops, before the server's graceful shutdown waits for open requests; made
     * anew at each start, since a context may be stopped and started again (the test framework pauses idle ones).
     */
    private volatile Sinks.Empty<Void> stopping = Sinks.empty();

    private volatile boolean running;

    EntryStreams(PollCoalescer statuses, LineFeeds feeds, StatusAnswers answers, StreamProperties properties,
            MeterRegistry metrics) {
        this.statuses = statuses;
        this.feeds = feeds;
        this.answers = answers;
        this.properties = properties;
        metrics.gauge("queuegate.streams.open", this.openTotal);
        this.redirected = metrics.counter("queuegate.streams.told_to_poll");
    }

    /** The place's events, from now until nothing is left to wait for. */
    Flux<ServerSentEvent<EntryStatusResponse>> stream(Token token, String lastEventId) {
        return Flux.defer(() -> {
            if (!admit(token.productId())) {
                this.redirected.increment();
                return read(token).map((answer) -> ServerSentEvent.builder(answer).event("poll").build()).flux()
                    .onErrorResume(EntryStreams::problem);
            }
            this.openTotal.incrementAndGet();
            Flux<ServerSentEvent<EntryStatusResponse>> changes = this.feeds.follow(token)
                .map((state) -> this.answers.describe(token, state))
                .takeUntil(EntryStreams::last)
                .filter(changed(lastEventId))
                .map((answer) -> ServerSentEvent.builder(answer).id(idOf(answer)).event(answer.status().name())
                    .build())
                .onErrorResume(EntryStreams::problem);
            Flux<ServerSentEvent<EntryStatusResponse>> heartbeats = Flux.interval(this.properties.heartbeat())
                .map((beat) -> ServerSentEvent.<EntryStatusResponse>builder().comment("keep-alive").build());
            return changes.publish((events) -> Flux.merge(events, heartbeats.takeUntilOther(events.then())))
                .takeUntilOther(this.stopping.asMono())
                .doFinally((signal) -> {
                    release(token.productId());
                    this.openTotal.decrementAndGet();
                });
        });
    }

    @Override
    public void start() {
        this.stopping = Sinks.empty();
        this.running = true;
    }

    /**
     * Ends the open streams: their clients reconnect, with their Last-Event-ID, to an instance that stays. A stream
     * would otherwise hold the server's graceful shutdown for its whole timeout.
     */
    @Override
    public void stop() {
        this.running = false;
        this.stopping.tryEmitEmpty();
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    /** Streams open now at this instance. */
    int open() {
        return this.openTotal.get();
    }

    /** Counts a new stream of the product, unless it has {@code max-per-product} already. */
    private boolean admit(long productId) {
        boolean[] admitted = {false};
        this.open.compute(productId, (id, count) -> {
            int now = count == null ? 0 : count;
            admitted[0] = now < this.properties.maxPerProduct();
            if (!admitted[0]) {
                return count;
            }
            return now + 1;
        });
        return admitted[0];
    }

    /** Uncounts a stream; a product leaves the map with its last stream. */
    private void release(long productId) {
        this.open.computeIfPresent(productId, (id, count) -> count > 1 ? count - 1 : null);
    }

    /** Whether nothing is left to tell: the place is gone. */
    private static boolean last(EntryStatusResponse answer) {
        return answer.pollAfterMs() == null || answer.status() == TokenStatus.EXPIRED;
    }

    private Mono<EntryStatusResponse> read(Token token) {
        return Mono.fromFuture(() -> this.statuses.read(token)).map((state) -> this.answers.describe(token, state));
    }

    /** Lets through an answer that says something the one before it (or the client's last event) did not. */
    private static Predicate<EntryStatusResponse> changed(String lastEventId) {
        String[] last = {lastEventId};
        return (answer) -> {
            String id = idOf(answer);
            boolean news = !id.equals(last[0]);
            last[0] = id;
            return news;
        };
    }

    /** What an event said: the status, the position band and the ETA's. */
    static String idOf(EntryStatusResponse answer) {
        return answer.status() + "." + band(answer.position()) + "." + band(answer.etaSeconds()) + "."
                + band(answer.etaMaxSeconds()) + "." + Objects.requireNonNullElse(answer.expiresAt(), "");
    }

    /** Exact below {@link #EXACT_BELOW}, two significant digits above: 1,234 and 1,249 are one band. */
    static String band(Long value) {
        if (value == null) {
            return "";
        }
        long step = 1;
        while (value / step >= EXACT_BELOW) {
            step *= 10;
        }
        return Long.toString(value / step * step);
    }

    /** The stream ends: the client reconnects after the retry a refusal asks (1 s for any other failure). */
    private static Flux<ServerSentEvent<EntryStatusResponse>> problem(Throwable failure) {
        if (!(failure instanceof ApiException)) {
            log.warn("A place's event stream failed: {}", failure.toString());
        }
        Duration retry = failure instanceof ApiException refusal && refusal.retryAfter() != null
                ? refusal.retryAfter() : Duration.ofSeconds(1);
        String code = failure instanceof ApiException refusal ? refusal.code() : "unavailable";
        return Flux.just(ServerSentEvent.<EntryStatusResponse>builder().event("problem").comment(code).retry(retry)
            .build());
    }
}
