package io.queuegate.ingest.warmup;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.resource.ClientResources;
import jakarta.validation.Validator;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RedisKeyProperties;
import io.queuegate.core.warmup.ScratchCopy;
import io.queuegate.core.warmup.UntilCompiled;
import io.queuegate.core.warmup.WarmUpRunner;
import io.queuegate.ingest.IngestApplication;
import io.queuegate.ingest.front.FrontLoops;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs the burst's code at start, before the service says it is ready ({@link WarmUpRunner}), so that the first
 * seconds of a sale meet compiled code: a cold JVM answered 3 % of its warm enter rate in its first five seconds.
 *
 * <p>What runs is the service itself: a {@link ScratchCopy} of this application in the same JVM, on a loopback port
 * of its own, driven by clients that enter and poll until enough enters went through and the JIT has caught up
 * ({@link UntilCompiled}). Its enters go to the real broker, on topics of the copy's own, so that the producer's
 * code here and the broker's produce path are warm too: with a producer that answered at once, the first seconds
 * after the warm-up ran at a fraction of the warm rate.
 */
@Component
class WarmUp extends WarmUpRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

    /**
     * The scratch copy's queues, open and generous so that every enter is accepted: a small product id and one of ten
     * digits, as shops number theirs. With the small one alone the token's variable-length number never looped, and
     * the first real token of a sale threw the compiled code away.
     */
    private static final long[] PRODUCTS = { 1, 4_000_000_007L };

    private final WarmUpProperties properties;

    private final FrontLoops loops;

    private final ClientResources redisLoops;

    private final ProducerFactory<?, ?> producers;

    private final JsonMapper json;

    private final Validator validator;

    private volatile Outcome outcome;

    WarmUp(WarmUpProperties properties, RedisKeyProperties keys, StringRedisTemplate redis, KafkaAdmin kafka,
            FrontLoops loops, ClientResources redisLoops, ProducerFactory<?, ?> producers, JsonMapper json,
            Validator validator) {
        super(properties.duration(), properties.scratch(), keys, redis, kafka);
        this.properties = properties;
        this.loops = loops;
        this.redisLoops = redisLoops;
        this.producers = producers;
        this.json = json;
        this.validator = validator;
    }

    @Override
    protected void warmUp(ScratchCopy copy, String[] arguments) throws Exception {
        long started = System.nanoTime();
        // The copy runs on the service's event loops (HTTP and Redis), publishes with its producer, and reads and
        // writes JSON and validates with its mapper and validator, so that what the copy's close ends or what the
        // copy alone filled (the mapper's and the validator's caches) does not throw compiled code away at the
        // sale's first requests (ScratchCopy.share).
        copy.share("serviceFrontLoops", this.loops)
            .share("serviceRedisLoops", this.redisLoops)
            .share("serviceProducerFactory", this.producers)
            .share("serviceJsonMapper", this.json)
            .share("serviceValidator", this.validator);
        ConfigurableApplicationContext scratch = copy.start(IngestApplication.class, IngestApplication.CONFIG_NAME,
                arguments, Map.of(
                        "queuegate.ingest.warm-up.scratch", "true",
                        "queuegate.ingest.noop-endpoint", "false",
                        "queuegate.ingest.topic", copy.topic("entries"),
                        "queuegate.ingest.leaves-topic", copy.topic("leaves"),
                        "queuegate.ingest.retention", "1h",
                        // the copy's topics are new: its first rounds wait for their metadata and leaders, longer
                        // than a client is kept waiting in a sale, and an enter refused then only shortens the warm-up
                        "queuegate.ingest.publish-timeout", "10s",
                        // the clients come through a proxy of loopback, each enter from an address of its own, so
                        // that the limits per client are run as a sale runs them and never refuse the warm-up
                        "queuegate.ingest.trusted-proxies", "127.0.0.1/32",
                        "spring.kafka.admin.auto-create", "true"));
        for (long product : PRODUCTS) {
            scratch.getBean(QueueStore.class).save(product, new QueueSettings(1_000, 1_000, 60, true));
        }
        int port = scratch.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        Outcome done = drive(port);
        this.outcome = done;
        log.info("Warmed up in {} ms: {} enters accepted and {} polls answered by a scratch copy of the service; "
                + "each second's enters so far and JIT time: {}",
                Duration.ofNanos(System.nanoTime() - started).toMillis(), done.accepted(), done.answered(),
                done.trace());
    }

    /** What the last warm-up did; null before one ran. */
    Outcome outcome() {
        return this.outcome;
    }

    /** Enters and polls, each client on a connection of its own, until the warm-up is done. */
    private Outcome drive(int port) throws Exception {
        AtomicLong enters = new AtomicLong();
        AtomicLong polls = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong addresses = new AtomicLong();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(clients).build()) {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < this.properties.connections(); c++) {
                URI entries = URI.create("http://127.0.0.1:" + port + "/api/v1/queues/" + PRODUCTS[c % PRODUCTS.length]
                        + "/entries");
                running.add(clients.submit(() -> {
                    while (!stop.get()) {
                        String from = forwardedFor(addresses.getAndIncrement());
                        HttpResponse<String> entered = http.send(HttpRequest.newBuilder(entries)
                            .header("Content-Type", "application/json")
                            .header("X-Forwarded-For", from)
                            // a visitor's first enter, the burst path of a sale's opening
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(), HttpResponse.BodyHandlers.ofString());
                        if (entered.statusCode() != 202) {
                            continue;
                        }
                        enters.incrementAndGet();
                        String token = JsonMapper.shared().readTree(entered.body()).get("token").asString();
                        HttpResponse<Void> polled = http.send(HttpRequest.newBuilder(URI.create(entries + "/" + token))
                            .header("X-Forwarded-For", from).GET().build(), HttpResponse.BodyHandlers.discarding());
                        if (polled.statusCode() == 200) {
                            polls.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            String trace;
            try {
                trace = new UntilCompiled(this.properties.duration(), this.properties.enters(),
                        this.properties.quietCompilation()).await(enters::get);
            }
            finally {
                stop.set(true);
            }
            for (Future<?> client : running) {
                client.get();
            }
            return new Outcome(enters.get(), polls.get(), trace);
        }
    }

    /** The n-th address of 198.18.0.0/15, the range set aside for benchmarks (RFC 2544). */
    private static String forwardedFor(long n) {
        long k = n % (1 << 17);
        return "198." + (18 + (k >>> 16)) + "." + ((k >>> 8) & 0xff) + "." + (k & 0xff);
    }

    /**
     * @param accepted enters the scratch copy answered 202
     * @param answered polls it answered 200
     * @param trace each second's enters so far and the JIT's time in it
     */
    record Outcome(long accepted, long answered, String trace) {
    }
}
