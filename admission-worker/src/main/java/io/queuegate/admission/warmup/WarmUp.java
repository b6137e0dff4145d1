package io.queuegate.admission.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.core.event.EntriesRequested;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RedisKeyProperties;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.warmup.ScratchCopy;
import io.queuegate.core.warmup.UntilCompiled;
import io.queuegate.core.warmup.WarmUpRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs a burst through the worker at start, before it says it is ready: the line writer's parsing, verifying and
 * appending, the broker's fetch path and the admission step. Without it the writer and the broker compiled for a
 * quarter of both cores in the first ten seconds of a sale, which the sale's enters needed.
 *
 * <p>What runs is the worker itself: a {@link ScratchCopy} of this application in the same JVM, with its own
 * topics, consumer group and keys. The warm-up publishes enter records to the copy's entries topic as ingest
 * would (group commits of {@value #ENTERS_PER_RECORD} signed tokens), at {@code queuegate.admission.warm-up.rate} and
 * never far ahead of what the copy's writer has put in its line, while the copy's admission step admits from it,
 * until enough are in and the JIT has caught up ({@link UntilCompiled}). The rate is bounded because ingest warms up
 * beside it on the same cores: a worker that wrote as fast as it could left ingest's warm-up a sixth of its enters,
 * and the burst met ingest cold.
 */
@Component
class WarmUp extends WarmUpRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

    /** The scratch copy's one queue. */
    private static final long PRODUCT = 1;

    private static final int ENTERS_PER_RECORD = 250;

    /** How far publishing may run ahead of the line: enough to keep the writer busy, not the broker's disk. */
    private static final long AHEAD = 20_000;

    private final WarmUpProperties properties;

    private volatile Outcome outcome;

    WarmUp(WarmUpProperties properties, RedisKeyProperties keys, StringRedisTemplate redis, KafkaAdmin kafka) {
        super(properties.duration(), properties.scratch(), keys, redis, kafka);
        this.properties = properties;
    }

    @Override
    protected void warmUp(ScratchCopy copy, String[] arguments) throws Exception {
        long started = System.nanoTime();
        String entries = copy.topic("entries");
        ConfigurableApplicationContext scratch = copy.start(AdmissionWorkerApplication.class,
                AdmissionWorkerApplication.CONFIG_NAME, arguments, Map.ofEntries(
                        Map.entry("queuegate.admission.warm-up.scratch", "true"),
                        Map.entry("queuegate.admission.topic", entries),
                        Map.entry("queuegate.admission.audit-topic", copy.topic("audit")),
                        Map.entry("queuegate.admission.dead-letter-topic", copy.topic("entries.DLT")),
                        Map.entry("queuegate.admission.sale-topic", copy.topic("sale")),
                        Map.entry("queuegate.admission.stock-topic", copy.topic("stock")),
                        Map.entry("queuegate.admission.bookings-topic", copy.topic("bookings")),
                        Map.entry("queuegate.admission.leaves-topic", copy.topic("leaves")),
                        Map.entry("queuegate.admission.webhook.topic", copy.topic("admissions")),
                        Map.entry("queuegate.admission.webhook.dead-letter-topic", copy.topic("admissions.DLT")),
                        Map.entry("queuegate.admission.webhook.group", copy.topic("webhooks")),
                        Map.entry("queuegate.admission.retention", "1h"),
                        Map.entry("spring.kafka.consumer.group-id", copy.topic("writer")),
                        Map.entry("spring.kafka.admin.auto-create", "true")));
        // admitting faster than the writer writes keeps the copy's line short, and its admissions expire in a
        // second: the warm-up holds tens of thousands of keys' members in Redis, not the millions it writes
        scratch.getBean(QueueStore.class).save(PRODUCT, new QueueSettings(100_000, 100_000, 1, true));
        MeterRegistry metrics = scratch.getBean(MeterRegistry.class);
        LongSupplier appended = () -> (long) metrics.counter("queuegate.line.appended").count();
        @SuppressWarnings("unchecked")
        KafkaTemplate<Object, Object> publisher = scratch.getBean(KafkaTemplate.class);
        TokenCodec tokens = scratch.getBean(TokenCodec.class);
        AtomicBoolean stop = new AtomicBoolean();
        Thread publishing = Thread.ofVirtual().name("warm-up-publisher").start(() -> {
            try {
                long began = System.nanoTime();
                for (long n = 0; !stop.get(); n += ENTERS_PER_RECORD) {
                    long due = began + n * 1_000_000_000L / this.properties.rate();
                    while ((System.nanoTime() < due || n - appended.getAsLong() > AHEAD) && !stop.get()) {
                        Thread.sleep(5);
                    }
                    publisher.send(entries, Long.toString(PRODUCT), record(tokens, n))
                        .get(10, TimeUnit.SECONDS);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            catch (Exception ex) {
                log.warn("The warm-up's publishing stopped: {}", ex.toString());
            }
        });
        String trace;
        try {
            trace = new UntilCompiled(this.properties.duration(), this.properties.enters(),
                    this.properties.quietCompilation()).await(appended);
        }
        finally {
            stop.set(true);
            publishing.join();
        }
        this.outcome = new Outcome(appended.getAsLong(), trace);
        log.info("Warmed up in {} ms: {} enters written into a scratch copy's line; each second's enters so far "
                + "and JIT time: {}", Duration.ofNanos(System.nanoTime() - started).toMillis(),
                this.outcome.written(), trace);
    }

    /** What the last warm-up did; null before one ran. */
    Outcome outcome() {
        return this.outcome;
    }

    /**
     * @param written enters the scratch copy's writer put into its line
     * @param trace each second's enters so far and the JIT's time in it
     */
    record Outcome(long written, String trace) {
    }

    /** One group commit as ingest publishes it: the enters numbered from {@code first}, with tokens signed here. */
    private static EntriesRequested record(TokenCodec tokens, long first) {
        List<EntriesRequested.Entry> entries = new ArrayList<>(ENTERS_PER_RECORD);
        long now = System.currentTimeMillis();
        for (long n = first; n < first + ENTERS_PER_RECORD; n++) {
            Token token = tokens.issue(PRODUCT, "warm-up-" + n);
            entries.add(new EntriesRequested.Entry(token.value(), token.userId(), "warm-up", now));
        }
        return new EntriesRequested(PRODUCT, entries);
    }
}
