package io.queuegate.ingest.status;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.ingest.LineFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.codec.ServerSentEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A place followed as Server-Sent Events, over real HTTP against the real Redis: one event per change, an admitted
 * place followed until it is gone (sold out under it, back, used), Last-Event-ID honoured, heartbeats, and the newest
 * streams of a crowded product told to poll.
 */
class EntryEventsTests extends IngestHttpTestSupport {

    private static final TokenCodec CODEC = new TokenCodec(TOKEN_SECRET);

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Autowired
    private PollCoalescer statuses;

    @Autowired
    private StatusAnswers answers;

    @Autowired
    private LineFeeds feeds;

    @Autowired
    private TokenStatusReader reader;

    private long product;

    @BeforeEach
    void openQueue() {
        this.product = LineFixture.freeProduct(this.redis);
        // one place at a time, four a second: the second of the line moves up only when the first leaves
        LineFixture.openUnregistered(this.redis, this.product, 1, 4);
    }

    @AfterEach
    void deleteQueue() {
        this.redis.delete(QueueKeys.of(this.product).all());
    }

    @Test
    void aPlaceIsToldAsEventsOfItsChangesUntilItIsAdmittedAndGone() throws Exception {
        String first = CODEC.issue(this.product, "ann").value();
        String mine = CODEC.issue(this.product, "bob").value();
        Stream stream = open(mine, null);

        Event pending = stream.next();
        assertThat(pending.name()).isEqualTo("PENDING");
        assertThat(pending.data().get("status").asString()).isEqualTo("PENDING");

        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(first, mine)));
        Event second = stream.next();
        assertThat(second.name()).isEqualTo("WAITING");
        assertThat(second.data().get("position").asLong()).isEqualTo(2);

        Admission admission = new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT);
        admission.admit(this.product, System.currentTimeMillis(), 10);
        Event next = stream.next();
        assertThat(next.name()).isEqualTo("WAITING");
        assertThat(next.data().get("position").asLong()).isEqualTo(1);

        new Leaving(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).remove(verified(first));
        admission.admit(this.product, System.currentTimeMillis(), 10);
        Event admitted = stream.next();
        assertThat(admitted.name()).isEqualTo("AVAILABLE");
        assertThat(admitted.data().get("expiresAt").asLong()).isPositive();
        assertThat(admitted.data().get("admission").asString()).isNotBlank();

        new Leaving(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).remove(verified(mine));
        Event gone = stream.next();
        assertThat(gone.name()).isEqualTo("EXPIRED");
        assertThat(stream.ended()).as("nothing is left to tell once the place is gone").isTrue();
        // one event per change, each named by what it told
        assertThat(List.of(pending.id(), second.id(), next.id(), admitted.id(), gone.id())).doesNotHaveDuplicates();
    }

    @Test
    void anAdmittedSubscriberIsToldAtOnceWhenTheStockRunsOutAndWhenItComesBack() throws Exception {
        String mine = CODEC.issue(this.product, "bob").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(mine)));
        new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).admit(this.product, System.currentTimeMillis(), 10);
        this.redis.opsForValue().set(QueueKeys.of(this.product).stock(), "1");
        Stream stream = open(mine, null);
        Event admitted = stream.next();
        assertThat(admitted.name()).isEqualTo("AVAILABLE");

        // someone else books the last unit
        this.redis.opsForValue().set(QueueKeys.of(this.product).stock(), "0");
        long soldAt = System.nanoTime();
        Event soldOut = stream.next();
        assertThat(soldOut.name()).isEqualTo("SOLD_OUT");
        assertThat(Duration.ofNanos(System.nanoTime() - soldAt)).as("read at an admitted place's pace")
            .isLessThanOrEqualTo(Duration.ofMillis(PollPolicy.ADMITTED_MAX_POLL_MS + 2_000));
        assertThat(soldOut.data().get("expiresAt").asLong()).isEqualTo(admitted.data().get("expiresAt").asLong());
        assertThat(soldOut.data().get("admission").isNull()).isTrue();

        this.redis.opsForValue().set(QueueKeys.of(this.product).stock(), "1");
        Event back = stream.next();
        assertThat(back.name()).isEqualTo("AVAILABLE");
        assertThat(back.data().get("admission").asString()).isNotBlank();
        stream.close();
    }

    @Test
    void aClientThatReconnectsIsNotToldAgainWhatItWasTold() throws Exception {
        String first = CODEC.issue(this.product, "ann").value();
        String mine = CODEC.issue(this.product, "bob").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(first, mine)));
        Stream before = open(mine, null);
        Event told = before.next();
        assertThat(told.data().get("position").asLong()).isEqualTo(2);
        before.close();

        Stream resumed = open(mine, told.id());
        new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT).admit(this.product, System.currentTimeMillis(), 10);

        Event news = resumed.next();
        assertThat(news.data().get("position").asLong()).as("the first event after the reconnect is news").isEqualTo(1);
        resumed.close();
    }

    @Test
    void stoppingTheServiceEndsItsStreams() throws Exception {
        String mine = CODEC.issue(this.product, "bob").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(mine)));
        try (ConfigurableApplicationContext another = startAnother()) {
            Stream stream = open(portOf(another), mine, null);
            assertThat(stream.next().name()).isEqualTo("WAITING");
            long stopping = System.nanoTime();

            another.close();

            assertThat(stream.ended()).isTrue();
            // not after the graceful shutdown's timeout (30 s), which an open stream would otherwise run out
            assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void anAdmissionIsToldAsSoonAsItIsMadeNotAtTheNextStep() throws Exception {
        String mine = CODEC.issue(this.product, "bob").value();
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, List.of(mine)));
        // an instance that reads its streams every 5 s: an admission told within 2 s of being made was told by the
        // admission step's news, not by the next step
        try (ConfigurableApplicationContext another = startAnother("--queuegate.ingest.streams.step=5s")) {
            Stream stream = open(portOf(another), mine, null);
            Event waiting = stream.next();
            assertThat(waiting.name()).isEqualTo("WAITING");

            long admittedAt = System.nanoTime();
            AdmissionResult step = new Admission(this.redis, TestRedis.TIMER, Keyspace.DEFAULT)
                .admit(this.product, System.currentTimeMillis(), 10);
            assertThat(step.admitted()).isEqualTo(1);
            Event admitted = stream.next();
            Duration told = Duration.ofNanos(System.nanoTime() - admittedAt);
            assertThat(admitted.name()).isEqualTo("AVAILABLE");
            assertThat(told).as("told on the news of the admission, before the next step").isLessThan(
                    Duration.ofSeconds(2));
            stream.close();
        }
    }

    @Test
    void aTokenOfAnotherProductIsRefusedBeforeAnyStream() {
        HttpResponse<String> refused = get(this.port, "/api/v1/queues/" + this.product + "/entries/"
                + CODEC.issue(this.product + 1, "ann").value() + "/events");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JsonMapper.shared().readTree(refused.body()).get("code").asString()).isEqualTo("invalid_token");
    }

    @Test
    void aQuietStreamSendsHeartbeatsAndACrowdedProductTellsTheNewestToPoll() {
        String mine = CODEC.issue(this.product, "bob").value();
        List<String> line = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            line.add(CODEC.issue(this.product, "user-" + i).value());
        }
        line.add(mine);
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, line));

        EntryStreams quiet = new EntryStreams(this.statuses, this.feeds, this.answers,
                new StreamProperties(10, Duration.ofMillis(100), Duration.ofMillis(100)), new SimpleMeterRegistry());
        // stopped and started again, as the test framework pauses an idle context: streams are served anew
        quiet.start();
        quiet.stop();
        quiet.start();
        List<ServerSentEvent<EntryStatusResponse>> events = quiet.stream(verified(mine), null)
            .take(Duration.ofMillis(1_000)).collectList().block();
        // far back, the place is read again only after its pollAfterMs (seconds): one event, and heartbeats between
        assertThat(events).filteredOn((event) -> event.data() != null).singleElement()
            .satisfies((event) -> assertThat(event.data().position()).isEqualTo(401));
        assertThat(events).filteredOn((event) -> "keep-alive".equals(event.comment())).hasSizeGreaterThanOrEqualTo(5);

        EntryStreams crowded = new EntryStreams(this.statuses, this.feeds, this.answers,
                new StreamProperties(0, Duration.ofSeconds(15), Duration.ofMillis(100)), new SimpleMeterRegistry());
        List<ServerSentEvent<EntryStatusResponse>> told = crowded.stream(verified(mine), null).collectList()
            .block(Duration.ofSeconds(10));
        assertThat(told).singleElement().satisfies((event) -> {
            assertThat(event.event()).isEqualTo("poll");
            assertThat(event.data().pollAfterMs()).isPositive();
        });
        assertThat(crowded.open()).isZero();
        assertThat(quiet.open()).isZero();
    }

    @Test
    void theStreamsOfAProductAreReadTogetherOnceAStepNotOnceAStream() {
        // a thousand admissions a second: the first forty places may be admitted within a step, so each is read at
        // every step
        LineFixture.openUnregistered(this.redis, this.product, 1, 1_000);
        List<String> line = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            line.add(CODEC.issue(this.product, "user-" + i).value());
        }
        LineFixture.append(this.redis, this.product, LineFixture.usersOf(CODEC, line));
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (PollCoalescer coalescer = new PollCoalescer(this.reader,
                new StatusPollProperties(128, 4096, Duration.ofSeconds(1), Duration.ofSeconds(2)), metrics)) {
            LineFeeds feeds = new LineFeeds(coalescer, new StreamProperties(100, Duration.ofSeconds(15),
                    Duration.ofMillis(100)), metrics);
            feeds.start();
            try {
                List<List<TokenState>> read = new ArrayList<>();
                List<Disposable> following = new ArrayList<>();
                for (String token : line) {
                    List<TokenState> states = new CopyOnWriteArrayList<>();
                    read.add(states);
                    following.add(feeds.follow(verified(token), states::add, (failure) -> { }));
                }
                await().atMost(Duration.ofSeconds(10))
                    .until(() -> read.stream().allMatch((states) -> states.size() >= 10));
                following.forEach(Disposable::dispose);

                long calls = metrics.get("queuegate.status.batch").summary().count();
                long steps = (long) metrics.get("queuegate.streams.product_steps").counter().count();
                long reads = (long) metrics.get("queuegate.streams.reads").counter().count();
                assertThat(calls).as("one Redis call a step for the product's forty streams").isLessThanOrEqualTo(steps);
                assertThat(reads).isGreaterThanOrEqualTo(30 * calls);
                assertThat(feeds.followed()).as("a place no stream follows is read no more").isZero();
            }
            finally {
                feeds.stop();
            }
        }
    }

    @Test
    void aStreamOutlastsAStoreThatFailsAMomentAndEndsWhenItStaysDown() {
        // a store that never answers: nothing listens on port 1
        LettuceConnectionFactory nowhere = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
        nowhere.afterPropertiesSet();
        nowhere.start();
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        try (PollCoalescer coalescer = new PollCoalescer(new TokenStatusReader(new StringRedisTemplate(nowhere),
                TestRedis.TIMER, Keyspace.DEFAULT), new StatusPollProperties(128, 4096, Duration.ofSeconds(1),
                        Duration.ofSeconds(2)), metrics)) {
            LineFeeds feeds = new LineFeeds(coalescer, new StreamProperties(100, Duration.ofSeconds(15),
                    Duration.ofMillis(100)), metrics);
            feeds.start();
            try {
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                long from = System.nanoTime();
                Disposable following = feeds.follow(verified(CODEC.issue(this.product, "bob").value()),
                        (state) -> { }, failures::add);
                await().atMost(Duration.ofSeconds(30)).until(() -> !failures.isEmpty());
                assertThat(Duration.ofNanos(System.nanoTime() - from))
                    .as("reads are tried again for a while before the stream is given up")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(LineFeeds.FAILING_FOR_MILLIS));
                assertThat(failures).hasSize(1);
                assertThat(metrics.get("queuegate.streams.reads").counter().count())
                    .as("read again, a second apart").isBetween(5.0, 15.0);
                following.dispose();
            }
            finally {
                feeds.stop();
                nowhere.destroy();
            }
        }
    }

    private static Token verified(String token) {
        return CODEC.verify(token).orElseThrow();
    }

    private Stream open(String token, String lastEventId) {
        return open(this.port, token, lastEventId);
    }

    private Stream open(int port, String token, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/queues/" + this.product + "/entries/" + token + "/events"))
            .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        return new Stream(HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines()));
    }

    private record Event(String id, String name, JsonNode data) {
    }

    /** The events of one stream as they arrive, parsed from its lines on a thread of their own. */
    private static final class Stream {

        private static final Event END = new Event(null, null, null);

        private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

        private final CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> response;

        Stream(CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> response) {
            this.response = response.thenApply((answer) -> {
                assertThat(answer.statusCode()).isEqualTo(200);
                assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                        (type) -> assertThat(type).startsWith("text/event-stream"));
                Thread.ofVirtual().start(() -> read(answer.body()));
                return answer;
            });
        }

        private void read(java.util.stream.Stream<String> lines) {
            String[] event = new String[3];
            try {
                lines.forEach((line) -> {
                    if (line.isEmpty()) {
                        if (event[2] != null) {
                            this.events.add(new Event(event[0], event[1], JsonMapper.shared().readTree(event[2])));
                        }
                        event[0] = null;
                        event[1] = null;
                        event[2] = null;
                    }
                    else if (line.startsWith("id:")) {
                        event[0] = line.substring(3);
                    }
                    else if (line.startsWith("event:")) {
                        event[1] = line.substring(6);
                    }
                    else if (line.startsWith("data:")) {
                        event[2] = line.substring(5);
                    }
                });
            }
            catch (RuntimeException closed) {
                // the test closed the stream
            }
            this.events.add(END);
        }

        /** The next event, within 10 s. */
        Event next() throws Exception {
            this.response.get(10, TimeUnit.SECONDS);
            Event event = this.events.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("an event within 10 s").isNotNull().isNotSameAs(END);
            return event;
        }

        /** Whether the server ended the stream, within 10 s. */
        boolean ended() throws Exception {
            return this.events.poll(10, TimeUnit.SECONDS) == END;
        }

        void close() throws Exception {
            this.response.get(10, TimeUnit.SECONDS).body().close();
        }
    }
}
