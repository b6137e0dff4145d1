package io.queuegate.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Figures 2 and 7. A burst of enter events with valid tokens is produced straight to the entries topic as fast as
 * the producer goes, in version 2 records of {@link #ENTRIES_PER_RECORD} enters as ingest's group commit writes them
 * (the records are built beforehand), and the clock runs until the admission worker has every one
 * in {@code waiting:{p}}. The yardstick is {@code redis-benchmark}'s pipelined ZADD on the same Redis. With the line
 * full, the Redis bytes per waiting user are read with {@code MEMORY USAGE ... SAMPLES 0}, against a bare ZSet of the
 * same tokens.
 */
final class DrainScenario {

    /**
     * Enters per record, as ingest's group commit writes them in a burst: each round carries the enters that arrived
     * while the previous one was in flight, about a hundred at tens of thousands of enters per second.
     */
    static final int ENTRIES_PER_RECORD = 100;

    private DrainScenario() {
    }

    static Map<String, Object> redisBenchmark(Bench bench) throws IOException, InterruptedException {
        int requests = bench.options.drainEvents();
        String key = "qgbench:zadd:{" + bench.runId + "}";
        bench.progress.phase("drain: redis-benchmark ZADD -P 64 yardstick", requests / 120_000.0);
        List<String> command = List.of("redis-benchmark", "-h", bench.options.host(), "-p", Integer.toString(bench.options.redisPort()), "-c", "50", "-n",
                Integer.toString(requests), "-P", "64", "-r", "1000000", "--csv", "ZADD", key, "__rand_int__",
                "m:__rand_int__");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("command", String.join(" ", command));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            process.waitFor(5, TimeUnit.MINUTES);
            for (String line : output.lines().toList()) {
                String[] cells = line.split("\",\"");
                if (cells.length > 1 && cells[0].startsWith("\"ZADD")) {
                    out.put("opsPerSecond", Math.round(Double.parseDouble(cells[1].replace("\"", ""))));
                }
            }
            if (!out.containsKey("opsPerSecond")) {
                out.put("error", "no figure in redis-benchmark's output: " + output.strip());
            }
        }
        catch (IOException ex) {
            out.put("error", "redis-benchmark could not run (apt-get install -y redis-tools): " + ex.getMessage());
        }
        finally {
            bench.redis.unlink(List.of(key));
        }
        return out;
    }

    static DrainFigure run(Bench bench, Map<String, Object> yardstick) throws Exception {
        int events = bench.options.drainEvents();
        long product = bench.newProduct();
        QueueKeys keys = QueueKeys.of(product);
        // not registered: the ticker leaves the line alone; the settings give status polls an admission rate for ETAs
        bench.writeSettings(product, 1, 1_000, 300, false);
        bench.progress.phase("drain: waiting for the waiting writer to be idle", 2);
        bench.awaitConsumerIdle(java.time.Duration.ofMinutes(3));

        bench.progress.phase("drain: building " + events + " enter events with valid tokens", events / 250_000.0);
        String[] tokens = new String[events];
        List<ProducerRecord<byte[], byte[]>> records = burst(Bench.TOPIC, product, events, bench.codec,
                "bench-" + bench.runId, tokens);
        long tokenChars = 0;
        for (String token : tokens) {
            tokenChars += token.length();
        }
        long usedBefore = Long.parseLong(bench.redis.info("memory").get("used_memory"));

        bench.progress.phase("drain: producing " + events + " events and draining them into waiting", events / 200_000.0);
        AtomicLong failed = new AtomicLong();
        List<long[]> curve = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> metered = bench.metered(() -> {
            long start;
            long produced;
            long firstSeen = -1;
            long done = -1;
            try (KafkaProducer<byte[], byte[]> producer = burstProducer(bench.options.host() + ":9092")) {
                producer.partitionsFor(Bench.TOPIC);
                start = System.nanoTime();
                Thread sender = Thread.ofPlatform().name("bench-producer")
                    .start(() -> failed.set(sendAll(producer, records)));
                long deadline = start + TimeUnit.MINUTES.toNanos(5);
                long producedAt = -1;
                while (System.nanoTime() < deadline) {
                    long seen = bench.redis.hgetLong(keys.stats(), "enteredTotal");
                    long now = System.nanoTime();
                    curve.add(new long[] {(now - start) / 1_000_000, seen});
                    if (seen > 0 && firstSeen < 0) {
                        firstSeen = now;
                    }
                    if (producedAt < 0 && !sender.isAlive()) {
                        producedAt = now;
                    }
                    if (seen >= events) {
                        done = now;
                        break;
                    }
                    Thread.sleep(20);
                }
                sender.join();
                produced = (producedAt > 0 ? producedAt : System.nanoTime()) - start;
            }
            Map<String, Object> timing = new LinkedHashMap<>();
            timing.put("events", events);
            timing.put("records", records.size());
            timing.put("entriesPerRecord", ENTRIES_PER_RECORD);
            timing.put("produceSeconds", Figures.round3(produced / 1e9));
            timing.put("producedPerSecond", Math.round(events / (produced / 1e9)));
            timing.put("sendFailures", failed.get());
            if (done < 0) {
                timing.put("error", "not all events were in waiting after 5 minutes");
                return timing;
            }
            double seconds = (done - start) / 1e9;
            timing.put("secondsUntilAllWaiting", Figures.round3(seconds));
            timing.put("firstInWaitingMs", Math.round((firstSeen - start) / 1e6));
            timing.put("eventsPerSecond", Math.round(events / seconds));
            return timing;
        });
        out.putAll(metered);
        out.put("cpuMicrosPerEvent", Figures.perUnit((Map<?, ?>) metered.get("cpu"), events));
        out.put("waiting", bench.redis.sync.zcard(keys.waiting()));
        out.put("averageTokenChars", Math.round(tokenChars / (double) events * 10) / 10.0);
        Object zadd = yardstick.get("opsPerSecond");
        if (zadd instanceof Long ops && out.get("eventsPerSecond") instanceof Long eps) {
            out.put("yardstickOpsPerSecond", ops);
            out.put("ratio", Figures.round3(eps / (double) ops));
        }
        List<long[]> coarse = new ArrayList<>();
        for (int i = 0; i < curve.size(); i += 5) {
            coarse.add(curve.get(i));
        }
        coarse.add(curve.getLast());
        out.put("curve", coarse);
        bench.progress.note(String.format("drain: %,d events in waiting after %s s (%,d events/s); redis-benchmark ZADD %,d ops/s",
                events, out.get("secondsUntilAllWaiting"), out.get("eventsPerSecond"), zadd));

        bench.lineProduct = product;
        List<String> sample = new ArrayList<>();
        int step = Math.max(1, events / 10_000);
        for (int i = 0; i < events; i += step) {
            sample.add(tokens[i]);
        }
        bench.lineTokens = sample;

        bench.results().put("memory", memory(bench, keys, tokens, usedBefore));
        out.put("backlog", backlog(bench, zadd));
        return Figures.typed(out, DrainFigure.class);
    }

    /**
     * Figure 2a: the same burst drained from the log. The writer is held while the events are produced, and the clock
     * runs from its release until every one is in the line: the writer's own pace, as a sale sees it once ingest has
     * taken enters faster than the line grows. The burst above times the producer as well, which shares the two
     * cores with the writer, Kafka and Redis.
     */
    private static Map<String, Object> backlog(Bench bench, Object yardstick) throws Exception {
        int events = bench.options.drainEvents();
        long product = bench.newProduct();
        QueueKeys keys = QueueKeys.of(product);
        bench.writeSettings(product, 1, 1_000, 300, false);
        bench.progress.phase("drain: building " + events + " more enter events for the backlog", events / 250_000.0);
        List<ProducerRecord<byte[], byte[]>> records = burst(Bench.TOPIC, product, events, bench.codec,
                "backlog-" + bench.runId, null);
        Map<String, Object> out = new LinkedHashMap<>();
        bench.progress.phase("drain: producing a backlog of " + events + " events with the writer held, then "
                + "releasing it", events / 200_000.0 + events / 200_000.0);
        bench.holdWriter(true);
        try (KafkaProducer<byte[], byte[]> producer = burstProducer(bench.options.host() + ":9092")) {
            long start = System.nanoTime();
            long failed = sendAll(producer, records);
            out.put("events", events);
            out.put("produceSeconds", Figures.round3((System.nanoTime() - start) / 1e9));
            out.put("sendFailures", failed);
        }
        catch (RuntimeException ex) {
            bench.holdWriter(false);
            throw ex;
        }
        Map<String, Object> metered = bench.metered(() -> {
            Map<String, Object> timing = new LinkedHashMap<>();
            long start = System.nanoTime();
            bench.holdWriter(false);
            long deadline = start + TimeUnit.MINUTES.toNanos(5);
            long seen = 0;
            while (seen < events && System.nanoTime() < deadline) {
                Thread.sleep(5);
                seen = bench.redis.hgetLong(keys.stats(), "enteredTotal");
            }
            if (seen < events) {
                timing.put("error", "only " + seen + " of " + events + " events were in waiting after 5 minutes");
                return timing;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            timing.put("secondsUntilAllWaiting", Figures.round3(seconds));
            timing.put("eventsPerSecond", Math.round(events / seconds));
            return timing;
        });
        out.putAll(metered);
        out.put("cpuMicrosPerEvent", Figures.perUnit((Map<?, ?>) metered.get("cpu"), events));
        if (yardstick instanceof Long ops && out.get("eventsPerSecond") instanceof Long eps) {
            out.put("ratio", Figures.round3(eps / (double) ops));
        }
        bench.progress.note(String.format("drain: a backlog of %,d events in waiting %s s after the writer's release "
                + "(%,d events/s)", events, out.get("secondsUntilAllWaiting"), out.get("eventsPerSecond")));
        bench.redis.unlink(keys.all());
        return out;
    }

    /**
     * A burst of {@code events} enters of one product, users {@code u1000000} on, in version 2 records of
     * {@link #ENTRIES_PER_RECORD} enters as ingest's group commit writes them; each token issued is put in
     * {@code tokens} when given.
     */
    static List<ProducerRecord<byte[], byte[]>> burst(String topic, long product, int events, TokenCodec codec,
            String requestIds, String[] tokens) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(events / ENTRIES_PER_RECORD + 1);
        byte[] key = Long.toString(product).getBytes(StandardCharsets.UTF_8);
        long requestedAt = System.currentTimeMillis();
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < events; i++) {
            String user = "u" + (1_000_000 + i);
            String token = codec.issue(product, user).value();
            if (tokens != null) {
                tokens[i] = token;
            }
            json.append(json.isEmpty() ? "{\"version\":2,\"productId\":" + product + ",\"entries\":[" : ",")
                .append("{\"token\":\"").append(token).append("\",\"userId\":\"").append(user)
                .append("\",\"requestId\":\"").append(requestIds).append('-').append(i)
                .append("\",\"requestedAt\":").append(requestedAt).append('}');
            if ((i + 1) % ENTRIES_PER_RECORD == 0 || i == events - 1) {
                json.append("]}");
                records.add(new ProducerRecord<>(topic, key, json.toString().getBytes(StandardCharsets.UTF_8)));
                json.setLength(0);
            }
        }
        return records;
    }

    /** Sends every record and returns once the broker has answered them all: how many sends failed. */
    private static long sendAll(KafkaProducer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records) {
        AtomicLong failed = new AtomicLong();
        for (ProducerRecord<byte[], byte[]> record : records) {
            producer.send(record, (metadata, ex) -> {
                if (ex != null) {
                    failed.incrementAndGet();
                }
            });
        }
        producer.flush();
        return failed.get();
    }

    /** The producer of a burst: as fast as it goes, acks=all and idempotent like ingest's, big batches. */
    static KafkaProducer<byte[], byte[]> burstProducer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(512L * 1024 * 1024));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    private static MemoryFigure memory(Bench bench, QueueKeys keys, String[] tokens, long usedBefore) {
        bench.progress.phase("memory: MEMORY USAGE at " + tokens.length + " waiting, and a bare ZSet yardstick",
                tokens.length / 200_000.0);
        Redis redis = bench.redis;
        long waiting = redis.sync.zcard(keys.waiting());
        long usedAfter = Long.parseLong(redis.info("memory").get("used_memory"));
        // every key of the product the line needs, whatever the version of the core adds (audit streams and so on)
        Map<String, Long> byKey = new LinkedHashMap<>();
        long total = 0;
        for (String key : keys.all()) {
            if (redis.sync.exists(key) > 0) {
                long bytes = redis.memoryUsage(key);
                byKey.put(key, bytes);
                total += bytes;
            }
        }
        String bareKey = "qgbench:zset:{" + bench.runId + "}";
        redis.zaddAll(bareKey, List.of(tokens), 1, null);
        long bareBytes = redis.memoryUsage(bareKey);
        redis.unlink(List.of(bareKey));
        double perUser = total / (double) waiting;
        double barePerMember = bareBytes / (double) tokens.length;
        MemoryFigure out = new MemoryFigure(null, waiting, byKey, Math.round(perUser * 10) / 10.0,
                Math.round((usedAfter - usedBefore) / (double) waiting * 10) / 10.0,
                Math.round(barePerMember * 10) / 10.0, Figures.round3(perUser / barePerMember));
        bench.progress.note(String.format("memory: %.0f bytes per waiting user (%s × a bare ZSet of the same tokens)",
                perUser, out.ratio()));
        return out;
    }
}
