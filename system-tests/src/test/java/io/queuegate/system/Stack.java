package io.queuegate.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.booking.BookingApplication;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.ingest.IngestApplication;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * The three services started in this JVM, each from its own main class and configuration file, against a real
 * Kafka broker and a real Redis ({@link TestInfrastructure}: containers when Docker answers, otherwise the embedded
 * KRaft broker and the Redis on 127.0.0.1:6379). Started once and shared by every system test; tests stay apart by
 * using products of their own.
 */
final class Stack {

    static final String ADMIN_TOKEN = TestSecrets.random("system-test-admin-token");
    static final String TOKEN_SECRET = TestSecrets.random("system-test-token-secret");
    /** The key the shop's backend enters its users with, in lines of identity "trusted" ({@link #configure}). */
    static final String ENTER_KEY = TestSecrets.random("system-test-enter-key");
    static final String ENTRIES_TOPIC = "queuegate.entries";

    /** The header of an operator's call. */
    static final Map<String, String> AS_ADMIN = Map.of("Authorization", "Bearer " + ADMIN_TOKEN);

    /** The header of the shop's backend entering one of its users: the enter key. */
    static final Map<String, String> AS_SHOP = Map.of("Authorization", "Bearer " + ENTER_KEY);

    /**
     * The stack's own registry: admission workers of other runs on the shared Redis walk the default one, and one of
     * another version would tick these products by its own rules.
     */
    static final String REGISTRY = "queuegate:queues:system-tests";

    /** How long a test waits for any answer. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(20);

    /**
     * How long a test waits for a poll's answer: ingest answers every poll within its status deadline (2 s by
     * default, 503 past it), so a poll still unanswered after this is a hang, reported as one.
     */
    static final Duration POLL_ANSWERED_WITHIN = Duration.ofSeconds(5);

    /** How long a test waits for what the services publish to reach a topic. */
    static final Duration PUBLISHED_WITHIN = Duration.ofSeconds(30);

    private static Stack instance;

    final TestInfrastructure infrastructure;
    final ConfigurableApplicationContext ingest;
    final ConfigurableApplicationContext worker;
    final ConfigurableApplicationContext booking;
    final StringRedisTemplate redis;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Stack() {
        this.infrastructure = TestInfrastructure.start(ENTRIES_TOPIC, "queuegate.bookings");
        // The waiting page books at booking-service from the browser, so each needs the other's address: the
        // booking port is chosen before either starts.
        int bookingPort = freePort();
        // the edge (EdgeSystemTests) sends people to the waiting page at ingest's own address, chosen before it starts
        int ingestPort = freePort();
        this.ingest = start(IngestApplication.class, IngestApplication.CONFIG_NAME,
                "queuegate.page.booking-url=http://127.0.0.1:" + bookingPort, "server.port=" + ingestPort,
                "queuegate.edge.waiting-room-url=http://127.0.0.1:" + ingestPort);
        this.worker = start(AdmissionWorkerApplication.class, AdmissionWorkerApplication.CONFIG_NAME,
                "queuegate.admission.tick-interval=50ms");
        this.booking = start(BookingApplication.class, BookingApplication.CONFIG_NAME, "server.port=" + bookingPort,
                "queuegate.web.allowed-origins=" + url(this.ingest, ""));
        this.redis = this.worker.getBean(StringRedisTemplate.class);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
    }

    static synchronized Stack get() {
        if (instance == null) {
            instance = new Stack();
        }
        return instance;
    }

    ConfigurableApplicationContext start(Class<?> application, String configName, String... extra) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.config.name", configName);
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        // the warm-ups compile the burst's code before a sale; a test's stack starts at once
        properties.put("queuegate.ingest.warm-up.duration", "0");
        properties.put("queuegate.admission.warm-up.duration", "0");
        // every client of a test is 127.0.0.1, many users at once
        properties.put("queuegate.ingest.per-client.enabled", "false");
        properties.put("spring.kafka.bootstrap-servers", this.infrastructure.kafkaBootstrapServers());
        properties.put("spring.data.redis.host", this.infrastructure.redisHost());
        properties.put("spring.data.redis.port", Integer.toString(this.infrastructure.redisPort()));
        properties.put("queuegate.token.secret", TOKEN_SECRET);
        properties.put("queuegate.admin.token", ADMIN_TOKEN);
        properties.put("queuegate.ingest.enter-keys", ENTER_KEY);
        properties.put("queuegate.queues.registry", REGISTRY);
        // the shops of the tests (key sets, webhook receivers) listen on http://127.0.0.1
        properties.put("queuegate.egress.allow-private", "true");
        properties.put("queuegate.egress.allow-http", "true");
        for (String pair : extra) {
            String[] kv = pair.split("=", 2);
            properties.put(kv[0], kv[1]);
        }
        List<String> args = new ArrayList<>();
        properties.forEach((key, value) -> args.add("--" + key + "=" + value));
        // Command-line arguments outrank each service's own file, as they would in production.
        return new SpringApplicationBuilder(application).run(args.toArray(String[]::new));
    }

    private void stop() {
        for (ConfigurableApplicationContext context : List.of(this.booking, this.worker, this.ingest)) {
            context.close();
        }
        this.infrastructure.close();
    }

    String kafkaBootstrapServers() {
        return this.infrastructure.kafkaBootstrapServers();
    }

    static String url(ConfigurableApplicationContext context, String path) {
        // the port a service answers on: ingest's HTTP front, which takes the service port, or the web server's
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        return "http://127.0.0.1:" + port + path;
    }

    /** Actuator's address: the management port, apart from the service port. */
    static String managementUrl(ConfigurableApplicationContext context, String path) {
        String port = context.getEnvironment().getProperty("local.management.port");
        if (port == null) {
            throw new IllegalStateException("the service has no management port of its own");
        }
        return "http://127.0.0.1:" + port + path;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static long newProduct() {
        return ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
    }

    void forget(long productId) {
        this.redis.opsForSet().remove(REGISTRY, Long.toString(productId));
        this.redis.delete(QueueKeys.of(productId).all());
    }

    /**
     * Makes Redis lose the product's sale, as one restarted without its data would: the product's keys and the lines'
     * epoch are deleted, and nothing else, the Redis being shared.
     */
    void loseSale(long productId) {
        this.redis.delete(QueueKeys.of(productId).all());
        this.redis.delete(QueueKeys.LINE_EPOCH);
    }

    // HTTP helpers -----------------------------------------------------------------------------------------

    record Reply(int status, HttpResponse<String> response) {

        JsonNode json() {
            return JsonMapper.shared().readTree(this.response.body());
        }

        String text(String field) {
            JsonNode node = json().get(field);
            return node == null || node.isNull() ? null : node.asString();
        }

        String header(String name) {
            return this.response.headers().firstValue(name).orElse(null);
        }
    }

    Reply send(HttpRequest request) {
        return send(request, ANSWER_WITHIN);
    }

    /**
     * Sends the request and waits for its answer at most {@code bound}. A request left unanswered fails the test with
     * what hung and for how long, and the threads of this JVM (the three services run in it) are written to
     * {@code target/hung-requests/} to show what the answer was waiting for.
     */
    Reply send(HttpRequest request, Duration bound) {
        long sent = System.nanoTime();
        CompletableFuture<HttpResponse<String>> answer = this.http.sendAsync(request,
                HttpResponse.BodyHandlers.ofString());
        try {
            HttpResponse<String> response = answer.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return new Reply(response.statusCode(), response);
        }
        catch (TimeoutException ex) {
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            answer.cancel(true);
            throw new AssertionError("%s %s got no answer within %d ms (waited %d ms); threads: %s".formatted(
                    request.method(), request.uri(), bound.toMillis(), waited, dumpThreads()));
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed", ex.getCause());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    Reply send(String method, String url, String body, String contentType, Map<String, String> headers) {
        return send(method, url, body, contentType, headers, ANSWER_WITHIN);
    }

    Reply send(String method, String url, String body, String contentType, Map<String, String> headers,
            Duration bound) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        return send(request.build(), bound);
    }

    private static String dumpThreads() {
        try {
            Path folder = Files.createDirectories(Path.of("target", "hung-requests"));
            Path dump = folder.resolve("threads-" + System.currentTimeMillis() + ".txt");
            StringBuilder text = new StringBuilder();
            for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                text.append('"').append(thread.getThreadName()).append("\" ").append(thread.getThreadState())
                    .append('\n');
                for (StackTraceElement frame : thread.getStackTrace()) {
                    text.append("    at ").append(frame).append('\n');
                }
                text.append('\n');
            }
            Files.writeString(dump, text);
            return dump.toAbsolutePath().toString();
        }
        catch (IOException ex) {
            return "not written (" + ex + ")";
        }
    }

    /**
     * Creates or changes the product's queue, in identity "trusted": the tests name their users ({@link #enter}), so
     * that they know whom the line holds, admits, books and holds.
     */
    Reply configure(long productId, int maxActive, int admitPerSecond, int ttlSeconds, boolean open) {
        return configure(productId, maxActive, admitPerSecond, ttlSeconds, open, "trusted");
    }

    /** The same in this identity: "visitor", "trusted" or "pass". */
    Reply configure(long productId, int maxActive, int admitPerSecond, int ttlSeconds, boolean open,
            String identity) {
        return send("PUT", url(this.worker, "/api/v1/queues/" + productId),
                "{\"maxActive\":%d,\"admitPerSecond\":%d,\"entryTtlSeconds\":%d,\"open\":%b,\"identity\":\"%s\"}"
                    .formatted(maxActive, admitPerSecond, ttlSeconds, open, identity),
                "application/json", AS_ADMIN);
    }

    /** An operator's call to the admission worker's API, without a body. */
    Reply admin(String method, String path) {
        return admin(method, path, null);
    }

    /** An operator's call to the admission worker's API, with a JSON body or none ({@code null}). */
    Reply admin(String method, String path, String json) {
        return send(method, url(this.worker, path), json, json == null ? null : "application/json", AS_ADMIN);
    }

    /** The shop's backend entering its user, with the enter key (a line of identity "trusted"). */
    Reply enter(long productId, String userId) {
        return enter(this.ingest, productId, userId);
    }

    /** The same at this ingest service. */
    Reply enter(ConfigurableApplicationContext ingestService, long productId, String userId) {
        return send("POST", url(ingestService, "/api/v1/queues/" + productId + "/entries"),
                "{\"userId\":\"" + userId + "\"}", "application/json", AS_SHOP);
    }

    /** A visitor's enter with this body: {@code {}} the first time, {@code {"token": ...}} again. */
    Reply visit(long productId, String body) {
        return send("POST", url(this.ingest, "/api/v1/queues/" + productId + "/entries"), body, "application/json",
                Map.of());
    }

    Reply status(long productId, String token) {
        return send("GET", url(this.ingest, "/api/v1/queues/" + productId + "/entries/" + token), null, null,
                Map.of(), POLL_ANSWERED_WITHIN);
    }

    Reply setStock(long productId, long available) {
        return send("PUT", url(this.booking, "/api/v1/products/" + productId + "/stock"),
                "{\"available\":" + available + "}", "application/json", AS_ADMIN);
    }

    Reply book(ConfigurableApplicationContext bookingService, long productId, String token, int quantity) {
        return send("POST", url(bookingService, "/api/v1/bookings"),
                "{\"productId\":%d,\"token\":\"%s\",\"quantity\":%d}".formatted(productId, token, quantity),
                "application/json", Map.of());
    }

    Reply book(long productId, String token) {
        return book(this.booking, productId, token, 1);
    }

    Reply leave(long productId, String token) {
        return send("DELETE", url(this.ingest, "/api/v1/queues/" + productId + "/entries/" + token), null, null,
                Map.of());
    }

    // Kafka ----------------------------------------------------------------------------------------------------

    /**
     * Reads {@code topics} from their start, in a consumer group of its own, and hands each record of the product
     * (its key) to {@code each} until {@code done} holds after a poll; fails when that takes longer than
     * {@link #PUBLISHED_WITHIN}.
     */
    void readFromStart(List<String> topics, long productId, Consumer<ConsumerRecord<String, String>> each,
            BooleanSupplier done) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "system-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(topics);
            await().atMost(PUBLISHED_WITHIN).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key().equals(Long.toString(productId))) {
                        each.accept(record);
                    }
                }
                return done.getAsBoolean();
            });
        }
    }
}
