package io.queuegate.bench;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Figure 2 on a stack of one's own: produces a burst of enter events with valid tokens (as {@link DrainScenario}
 * does) to a given broker and topic, and times how long the running admission worker takes to put all of them in
 * {@code waiting:{p}} of a given Redis. Used by {@code bench/drain-check.sh}, which starts a private Redis, Kafka and
 * worker, so that the drain can be measured beside a stack that runs on the usual ports.
 *
 * <pre>
 * DrainCheck burst   BOOTSTRAP TOPIC REDIS_PORT EVENTS SECRET   # produce while the worker drains; time from the first send
 * DrainCheck produce BOOTSTRAP TOPIC REDIS_PORT EVENTS SECRET   # produce only, print the product id
 * DrainCheck await   PRODUCT REDIS_PORT EVENTS                  # time from the first event in the line to the last
 * </pre>
 */
public final class DrainCheck {

    private DrainCheck() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "burst" -> burst(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
            case "produce" -> {
                long product = newProduct();
                produce(args[1], args[2], product, Integer.parseInt(args[4]), args[5]);
                System.out.println(product);
            }
            case "await" -> await(Long.parseLong(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("burst, produce or await");
        }
    }

    private static void burst(String bootstrap, String topic, int redisPort, int events, String secret)
            throws Exception {
        long product = newProduct();
        List<ProducerRecord<byte[], byte[]>> records = records(topic, product, events, secret);
        try (Redis redis = new Redis("127.0.0.1", redisPort);
                KafkaProducer<byte[], byte[]> producer = DrainScenario.burstProducer(bootstrap)) {
            producer.partitionsFor(topic);
            long start = System.nanoTime();
            AtomicLong producedAt = new AtomicLong();
            Thread sender = Thread.ofPlatform().start(() -> {
                records.forEach(producer::send);
                producer.flush();
                producedAt.set(System.nanoTime());
            });
            long done = watch(redis, product, events, start);
            sender.join();
            System.out.printf("burst: %,d events produced in %.3f s, all in the line after %.3f s: %,.0f events/s%n",
                    events, (producedAt.get() - start) / 1e9, (done - start) / 1e9, events / ((done - start) / 1e9));
            memory(redis, product);
            redis.unlink(QueueKeys.of(product).all());
        }
    }

    private static void await(long product, int redisPort, int events) throws Exception {
        try (Redis redis = new Redis("127.0.0.1", redisPort)) {
            long first = 0;
            // the script releases the writer only once this is watching
            System.out.println("watching");
            System.out.flush();
            while (redis.hgetLong(QueueKeys.of(product).stats(), "enteredTotal") == 0) {
                Thread.sleep(2);
            }
            first = System.nanoTime();
            long done = watch(redis, product, events, first);
            System.out.printf("backlog: %,d events drained in %.3f s from the first in the line: %,.0f events/s%n",
                    events, (done - first) / 1e9, events / ((done - first) / 1e9));
            memory(redis, product);
            redis.unlink(QueueKeys.of(product).all());
        }
    }

    private static void produce(String bootstrap, String topic, long product, int events, String secret) {
        List<ProducerRecord<byte[], byte[]>> records = records(topic, product, events, secret);
        try (KafkaProducer<byte[], byte[]> producer = DrainScenario.burstProducer(bootstrap)) {
            long start = System.nanoTime();
            records.forEach(producer::send);
            producer.flush();
            System.err.printf("produced %,d events in %.3f s%n", events, (System.nanoTime() - start) / 1e9);
        }
    }

    /** Figure 7: bytes of every key of the product per waiting user ({@code MEMORY USAGE ... SAMPLES 0}). */
    private static void memory(Redis redis, long product) {
        long waiting = redis.sync.zcard(QueueKeys.of(product).waiting());
        long total = 0;
        StringBuilder byKey = new StringBuilder();
        for (String key : QueueKeys.of(product).all()) {
            if (redis.sync.exists(key) > 0) {
                long bytes = redis.memoryUsage(key);
                total += bytes;
                byKey.append(' ').append(key).append('=').append(bytes);
            }
        }
        System.out.printf("memory: %.1f B per waiting user at %,d waiting;%s%n", total / (double) waiting, waiting,
                byKey);
    }

    /** Polls the line's counter every 2 ms; returns when it holds every event. */
    private static long watch(Redis redis, long product, int events, long start) throws InterruptedException {
        String stats = QueueKeys.of(product).stats();
        while (redis.hgetLong(stats, "enteredTotal") < events) {
            if (System.nanoTime() - start > 600_000_000_000L) {
                throw new IllegalStateException("not all events in the line after 10 minutes");
            }
            Thread.sleep(2);
        }
        return System.nanoTime();
    }

    private static long newProduct() {
        return ThreadLocalRandom.current().nextLong(1_000_000L, 9_000_000L);
    }

    private static List<ProducerRecord<byte[], byte[]>> records(String topic, long product, int events, String secret) {
        return DrainScenario.burst(topic, product, events, new TokenCodec(secret), "drain", null);
    }
}
