package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.loopback.HttpPool;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every scenario shares: the options, the running stack, Redis, the CPU meter, the progress line, the token
 * codec with the services' secret, and the products this run created (each deleted at the end, and remembered in a
 * file so that a run that died is cleaned up by the next one).
 */
final class Bench implements AutoCloseable {

    static final String TOPIC = "queuegate.entries";

    static final int INGEST = 8080;

    static final int ADMIN = 8081;

    static final int BOOKING = 8082;

    final Options options;

    final Redis redis;

    final Stack stack;

    final CpuMeter cpu;

    final Progress progress;

    final TokenCodec codec;

    final Load load;

    /** The rate figures' driver: endpoints warmed up, then measured in alternating rounds. */
    final AlternatingRounds rounds;

    final String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);

    private final Map<String, Object> results = new LinkedHashMap<>();

    private final Admin kafka;

    private LettuceConnectionFactory factory;

    private StringRedisTemplate template;

    private final Path productsFile;

    private final List<Long> products = new ArrayList<>();

    private long nextProduct;

    /** Set by the drain scenario for the status scenario: a product with a long line, and some of its tokens. */
    long lineProduct;

    List<String> lineTokens = List.of();

    Bench(Options options, Progress progress, boolean wrk) {
        this.options = options;
        this.progress = progress;
        this.redis = new Redis(options.host(), options.redisPort());
        long redisPid = Long.parseLong(this.redis.info("server").getOrDefault("process_id", "-1"));
        this.stack = new Stack(options.root(), redisPid);
        this.cpu = new CpuMeter(this.stack.pids);
        this.codec = new TokenCodec(this.stack.tokenSecret);
        this.load = new Load(options.host(), wrk, options.wrkThreads(), options.connections(),
                options.rawDir().resolve("wrk"));
        this.rounds = new AlternatingRounds(options, progress, this.load, this.cpu, this.redis, "b" + this.runId);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.host() + ":9092");
        this.kafka = Admin.create(props);
        this.productsFile = options.resultsDir().resolve("tmp/products.txt");
        // Product ids under 2^21 keep tokens as long as a real deployment's (a 3-byte varint in the token).
        this.nextProduct = 1_100_000 + (System.currentTimeMillis() / 1000 % 4_000) * 200;
    }

    /** A product id no key in Redis uses yet; it is deleted at the end of the run. */
    long newProduct() {
        while (true) {
            long id = this.nextProduct++;
            QueueKeys keys = QueueKeys.of(id);
            if (this.redis.sync.exists(keys.all().toArray(String[]::new)) == 0
                    && !this.redis.sync.sismember(QueueKeys.REGISTRY, Long.toString(id))) {
                this.products.add(id);
                try {
                    Files.createDirectories(this.productsFile.getParent());
                    Files.writeString(this.productsFile, id + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
                catch (IOException ex) {
                    // only the clean-up after a crash needs the file
                }
                return id;
            }
        }
    }

    /** Deletes what a previous run that did not finish left behind. */
    void cleanupStale() throws IOException {
        if (!Files.exists(this.productsFile)) {
            return;
        }
        List<Long> stale = Files.readAllLines(this.productsFile).stream().map(String::trim).filter(s -> !s.isEmpty())
            .map(Long::parseLong).toList();
        if (!stale.isEmpty()) {
            this.progress.note("deleting the keys of " + stale.size() + " products a previous run left behind");
            deleteProducts(stale);
        }
        Files.delete(this.productsFile);
    }

    void cleanup() {
        deleteProducts(this.products);
        this.products.clear();
        try {
            Files.deleteIfExists(this.productsFile);
        }
        catch (IOException ex) {
            // nothing left to clean
        }
    }

    private void deleteProducts(Collection<Long> ids) {
        for (long id : ids) {
            this.redis.sync.srem(QueueKeys.REGISTRY, Long.toString(id));
            this.redis.unlink(QueueKeys.of(id).all());
            this.redis.unlink(Yardsticks.seedKeys(id));
        }
    }

    /**
     * Starts the yardstick apps with ingest's own {@code java} and JVM options, counts their CPU from now on and
     * adds them to the report's configuration table. The caller closes them with {@link #stopYardsticks}.
     */
    Yardsticks startYardsticks() throws IOException, InterruptedException {
        Yardsticks apps = Yardsticks.start(this.options.root(), this.stack.launcher("ingest-service"),
                this.options.host(), this.progress);
        apps.pids().forEach(this.cpu::watch);
        this.stack.services.putAll(apps.describe());
        return apps;
    }

    void stopYardsticks(Yardsticks apps) {
        apps.pids().keySet().forEach(this.cpu::unwatch);
        apps.close();
    }

    /** Spring Data Redis for the core's own script wrappers, built on first use. */
    synchronized StringRedisTemplate template() {
        if (this.template == null) {
            this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(this.options.host(), this.options.redisPort()));
            this.factory.afterPropertiesSet();
            this.factory.start();
            this.template = new StringRedisTemplate(this.factory);
        }
        return this.template;
    }

    /**
     * Writes a line as the waiting writer leaves it: the tokens' users in {@code waiting} scored by sequence, and the
     * sequence and counter in {@code stats}.
     */
    void fillLine(long productId, List<String> tokens) {
        QueueKeys keys = QueueKeys.of(productId);
        List<String> users = tokens.stream().map(token -> this.codec.verify(token).orElseThrow().userId()).toList();
        this.redis.zaddAll(keys.waiting(), users, 1, null);
        this.redis.sync.hset(keys.stats(), Map.of("seq", Integer.toString(tokens.size()), "enteredTotal",
                Integer.toString(tokens.size())));
    }

    /** Writes a queue's settings straight into Redis without registering it, so the admission ticker leaves it alone. */
    void writeSettings(long productId, int maxActive, int admitPerSecond, int ttlSeconds, boolean open) {
        this.redis.sync.hset(QueueKeys.of(productId).settings(), Map.of("maxActive", Integer.toString(maxActive),
                "admitPerSecond", Integer.toString(admitPerSecond), "entryTtlSeconds", Integer.toString(ttlSeconds),
                "open", Boolean.toString(open)));
    }

    /** Creates a queue through the admin API, registered, so the admission worker ticks it. */
    void putQueue(long productId, int maxActive, int admitPerSecond, int ttlSeconds, boolean open) throws IOException {
        try (HttpPool http = new HttpPool(this.options.host(), ADMIN, 1)) {
            HttpPool.Response response = http.put("/api/v1/queues/" + productId, "{\"maxActive\":" + maxActive
                    + ",\"admitPerSecond\":" + admitPerSecond + ",\"entryTtlSeconds\":" + ttlSeconds + ",\"open\":"
                    + open + "}", this.stack.adminToken);
            if (response.status() != 200) {
                throw new IOException("PUT queue " + productId + " answered " + response.status() + " " + response.body()
                        + (response.status() == 401 ? " (admin token: set ADMIN_TOKEN or .local/admin-token)" : ""));
            }
        }
    }

    /**
     * Holds the admission worker's line writer until it has stopped reading, or releases it ({@code PUT
     * /api/v1/writer}); returns once the worker says so.
     */
    void holdWriter(boolean held) throws IOException, InterruptedException {
        try (HttpPool http = new HttpPool(this.options.host(), ADMIN, 1)) {
            String body = "{\"held\":" + held + "}";
            // held: once the writer stopped reading; released: at once
            String settled = held ? "\"paused\":true" : "\"held\":false";
            HttpPool.Response response = http.put("/api/v1/writer", body, this.stack.adminToken);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (response.status() == 200 && !response.body().contains(settled) && System.nanoTime() < deadline) {
                Thread.sleep(20);
                response = http.put("/api/v1/writer", body, this.stack.adminToken);
            }
            if (response.status() != 200 || !response.body().contains(settled)) {
                throw new IOException("PUT /api/v1/writer " + body + " answered " + response.status() + " "
                        + response.body());
            }
        }
    }

    void putStock(long productId, long available) throws IOException {
        try (HttpPool http = new HttpPool(this.options.host(), BOOKING, 1)) {
            HttpPool.Response response = http.put("/api/v1/products/" + productId + "/stock",
                    "{\"available\":" + available + "}", this.stack.adminToken);
            if (response.status() != 200) {
                throw new IOException("PUT stock " + productId + " answered " + response.status() + " " + response.body());
            }
        }
    }

    /**
     * Proves the benchmark computes the same tokens as the services (the burst's events must pass their HMAC check):
     * enters through ingest and compares the token with one issued here.
     */
    void verifyTokenSecret() throws IOException {
        long product = newProduct();
        writeSettings(product, 1, 1, 60, true);
        try (HttpPool http = new HttpPool(this.options.host(), INGEST, 1)) {
            HttpPool.Response response = http.post("/api/v1/queues/" + product + "/entries", "{}");
            if (response.status() != 202) {
                throw new IOException("enter answered " + response.status() + " " + response.body());
            }
            JsonNode accepted = JsonMapper.shared().readTree(response.body());
            String token = accepted.path("token").asString(null);
            String userId = accepted.path("userId").asString("-");
            if (!this.codec.issue(product, userId).value().equals(token)) {
                throw new IllegalStateException("the services sign tokens with another secret than the benchmark; "
                        + "run the benchmark with the same QUEUE_TOKEN_SECRET as the services");
            }
        }
    }

    /**
     * The consumer groups reading the entries topic right now (the waiting writer's), found by their members'
     * assignments rather than by name: the listener's id, not {@code spring.kafka.consumer.group-id}, names the group.
     */
    List<String> writerGroups() throws ExecutionException, InterruptedException {
        List<String> ids = this.kafka.listGroups().all().get().stream().map(listing -> listing.groupId()).toList();
        List<String> readers = new ArrayList<>();
        this.kafka.describeConsumerGroups(ids).all().get().forEach((id, group) -> {
            boolean reads = group.members().stream().anyMatch(member -> member.assignment().topicPartitions().stream()
                .anyMatch(partition -> partition.topic().equals(TOPIC)));
            if (reads) {
                readers.add(id);
            }
        });
        return readers;
    }

    /** Events the waiting writer has not committed yet, over every partition of the entries topic. */
    long consumerLag() throws ExecutionException, InterruptedException {
        long lag = 0;
        for (String group : writerGroups()) {
            lag = Math.max(lag, consumerLag(group));
        }
        return lag;
    }

    private long consumerLag(String group) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> committed = this.kafka.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata().get();
        Set<TopicPartition> partitions = this.kafka.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC)
            .partitions().stream().map(info -> new TopicPartition(TOPIC, info.partition())).collect(Collectors.toSet());
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        for (TopicPartition partition : partitions) {
            latest.put(partition, OffsetSpec.latest());
            earliest.put(partition, OffsetSpec.earliest());
        }
        var ends = this.kafka.listOffsets(latest).all().get();
        var starts = this.kafka.listOffsets(earliest).all().get();
        long lag = 0;
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata done = committed.get(partition);
            long position = done != null ? done.offset() : starts.get(partition).offset();
            lag += Math.max(0, ends.get(partition).offset() - position);
        }
        return lag;
    }

    /** Waits until the waiting writer has caught up with the log, so no backlog leaks into the next figure. */
    long awaitConsumerIdle(Duration limit) throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        long lag = consumerLag();
        while (lag > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            lag = consumerLag();
        }
        if (lag > 0) {
            this.progress.note("warning: the waiting writer still lags " + lag + " events after " + limit.toSeconds() + " s");
        }
        return lag;
    }

    /** Everything this run measured, by figure; written as the run's JSON. */
    Map<String, Object> results() {
        return this.results;
    }

    /** Runs {@code body} and adds the CPU split of its duration under {@code cpu}. */
    Map<String, Object> metered(Callable<Map<String, Object>> body) throws Exception {
        CpuMeter.Snapshot before = this.cpu.snap();
        Map<String, Object> out = new LinkedHashMap<>(body.call());
        out.put("cpu", CpuMeter.between(before, this.cpu.snap()));
        return out;
    }

    @Override
    public void close() {
        this.kafka.close(Duration.ofSeconds(2));
        if (this.factory != null) {
            this.factory.destroy();
        }
        this.redis.close();
    }
}
