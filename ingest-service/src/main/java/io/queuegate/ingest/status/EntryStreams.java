package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

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
 * every step, and read at once when an admission step announces it admitted someone ({@link AdmissionNews}); one
 * far back about as often as its poll would be told, and never sooner than the poll budget allows, so
 * {@code maxPollsPerSecond} stays the bound on Redis work. Past
 * {@code max-per-product} open streams, a new one is told to poll instead: one event {@code poll}, then closed.
 * A read that fails is tried again a second later; reads that keep failing for 10 s close the stream with a
 * {@code problem} event and the retry the client waits before it reconnects.
 *
 * <p>A stream holds little, since one ingest holds tens of thousands: its place in {@link LineFeeds}, what it told
 * last, and a sink of a few events for the connection to write; one timer sends every stream's heartbeat. A client
 * that reads so slowly that those few events are not written yet is closed, and reconnects with its Last-Event-ID.
 */
@Component
class EntryStreams implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EntryStreams.class);

    /** Positions and ETAs are told exactly up to this, then to two significant digits, as a page shows them. */
    private static final long EXACT_BELOW = 100;

    /** Events a stream holds for a slow connection before it is closed. */
    private static final int BUFFERED_EVENTS = 8;

    private static final ServerSentEvent<EntryStatusResponse> HEARTBEAT = ServerSentEvent.<EntryStatusResponse>builder()
        .comment("keep-alive").build();

    private final PollCoalescer statuses;

    private final LineFeeds feeds;

    private final StatusAnswers answers;

    private final StreamProperties properties;

    /** Open streams per product with any; a product leaves with its last stream. */
    private final ConcurrentHashMap<Long, Integer> open = new ConcurrentHashMap<>();

    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();

    private final Counter redirected;

    private ScheduledExecutorService heartbeats;

    EntryStreams(PollCoalescer statuses, LineFeeds feeds, StatusAnswers answers, StreamProperties properties,
            MeterRegistry metrics) {
        this.statuses = statuses;
        this.feeds = feeds;
        this.answers = answers;
        this.properties = properties;
        metrics.gaugeCollectionSize("queuegate.streams.open", List.of(), this.subscribers);
        this.redirected = metrics.counter("queuegate.streams.told_to_poll");
    }

    /** The place's events, from now until nothing is left to wait for. */
    Flux<ServerSentEvent<EntryStatusResponse>> stream(Token token, String lastEventId) {
        return Flux.defer(() -> {
            if (!admit(token.productId())) {
                this.redirected.increment();
                return read(token).map((answer) -> ServerSentEvent.builder(answer).event("poll").build()).flux()
                    .onErrorResume((failure) -> Flux.just(problem(failure)));
            }
            Subscriber subscriber = new Subscriber(token, lastEventId);
            this.subscribers.add(subscriber);
            subscriber.following = this.feeds.follow(token, subscriber::told, subscriber::failed);
            if (!isRunning()) {
                subscriber.end();
            }
            return subscriber.events.asFlux().doFinally((signal) -> {
                subscriber.following.dispose();
                this.subscribers.remove(subscriber);
                release(token.productId());
            });
        });
    }

    @Override
    public void start() {
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("stream-heartbeats").daemon(true).factory());
        // a pass a fifteenth of the interval, each beating only the streams quiet for their interval: tens of
        // thousands of streams opened in the same second of a sale must not all be written to in one later instant,
        // which would hold the event loops while admissions wait to be told
        long every = Math.max(1, this.properties.heartbeat().toMillis() / 15);
        this.heartbeats.scheduleWithFixedDelay(() -> {
            long now = System.currentTimeMillis();
            this.subscribers.forEach((subscriber) -> subscriber.beatIfQuiet(now));
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Ends the open streams: their clients reconnect, with their Last-Event-ID, to an instance that stays. A stream
     * would otherwise hold the server's graceful shutdown for its whole timeout.
     */
    @Override
    public void stop() {
        this.heartbeats.shutdownNow();
        this.heartbeats = null;
        this.subscribers.forEach(Subscriber::end);
    }

    @Override
    public boolean isRunning() {
        return this.heartbeats != null;
    }

    /** Streams open now at this instance. */
    int open() {
        return this.subscribers.size();
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

    /** The stream's last event: the client reconnects after the retry a refusal asks (1 s for any other failure). */
    private static ServerSentEvent<EntryStatusResponse> problem(Throwable failure) {
        if (!(failure instanceof ApiException)) {
            log.warn("A place's event stream failed: {}", failure.toString());
        }
        Duration retry = failure instanceof ApiException refusal && refusal.retryAfter() != null
                ? refusal.retryAfter() : Duration.ofSeconds(1);
        String code = failure instanceof ApiException refusal ? refusal.code() : "unavailable";
        return ServerSentEvent.<EntryStatusResponse>builder().event("problem").comment(code).retry(retry).build();
    }

    /**
     * One open stream: what it told last, and the few events its connection has not written yet. Its place's states
     * come from the coalescer's call threads, its heartbeats from the timer, so what it sends is sent one at a time.
     */
    private final class Subscriber {

        final Token token;

        final Sinks.Many<ServerSentEvent<EntryStatusResponse>> events = Sinks.many().unicast()
            .onBackpressureBuffer(Queues.<ServerSentEvent<EntryStatusResponse>>get(BUFFERED_EVENTS).get());

        /** The id of the last event told, or the client's Last-Event-ID before the first. */
        String lastId;

        Disposable following;

        /** When the stream last sent something; a heartbeat is due once it has been quiet for {@link #quietFor}. */
        long sentAt = System.currentTimeMillis();

        /** The heartbeat interval, less up to a half of it at random: streams opened together beat apart. */
        final long quietFor;

        Subscriber(Token token, String lastEventId) {
            this.token = token;
            this.lastId = lastEventId;
            long heartbeat = EntryStreams.this.properties.heartbeat().toMillis();
            this.quietFor = heartbeat - ThreadLocalRandom.current().nextLong(heartbeat / 2 + 1);
        }

        /** A read of the place: an event if it says something new, the last one once the place is gone. */
        synchronized void told(TokenState state) {
            EntryStatusResponse answer = EntryStreams.this.answers.describe(this.token, state);
            String id = idOf(answer);
            if (!id.equals(this.lastId)) {
                this.lastId = id;
                send(ServerSentEvent.builder(answer).id(id).event(answer.status().name()).build());
            }
            if (last(answer)) {
                this.events.tryEmitComplete();
            }
        }

        synchronized void failed(Throwable failure) {
            send(problem(failure));
            this.events.tryEmitComplete();
        }

        synchronized void beatIfQuiet(long now) {
            if (now - this.sentAt >= this.quietFor) {
                send(HEARTBEAT);
            }
        }

        synchronized void end() {
            this.events.tryEmitComplete();
        }

        private void send(ServerSentEvent<EntryStatusResponse> event) {
            this.sentAt = System.currentTimeMillis();
            Sinks.EmitResult result = this.events.tryEmitNext(event);
            if (result == Sinks.EmitResult.FAIL_OVERFLOW) {
                // the connection has not written the events before: close it rather than hold more
                this.events.tryEmitComplete();
            }
        }
    }
}
