package io.queuegate.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.queuegate.admission.AdmissionWorkerApplication;
import io.queuegate.ingest.IngestApplication;
import io.queuegate.system.Stack.Reply;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.ProducerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** What an operator relies on: health with its dependencies, metrics of a sale, the API description. */
class OperationsSystemTests extends StackTests {

    private long productId;

    private Reply get(ConfigurableApplicationContext service, String path) {
        return this.stack.send("GET", Stack.url(service, path), null, null, Map.of());
    }

    private Reply manage(ConfigurableApplicationContext service, String path) {
        return this.stack.send("GET", Stack.managementUrl(service, path), null, null, Map.of());
    }

    @Test
    void everyServiceReportsRedisAndKafkaInItsHealthAndReadiness() {
        for (ConfigurableApplicationContext service : List.of(this.stack.ingest, this.stack.worker, this.stack.booking)) {
            Reply health = manage(service, "/actuator/health");
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.json().at("/components/redis/status").asString()).isEqualTo("UP");
            assertThat(health.json().at("/components/kafka/status").asString()).isEqualTo("UP");
            assertThat(health.json().at("/components/kafka/details/brokers").asInt()).isEqualTo(1);
            assertThat(manage(service, "/actuator/health/readiness").status()).isEqualTo(200);
            assertThat(manage(service, "/actuator/health/liveness").status()).isEqualTo(200);
        }
    }

    /**
     * What a Kafka cluster's {@code min.insync.replicas} protects only holds for writes sent with acks=all, and a
     * producer's retry after a lost acknowledgement (a broker lost mid-send) writes nothing twice only with
     * idempotence: every producer of every service sends so.
     */
    @Test
    void everyServiceSendsWithAcksAllAndIdempotence() {
        for (ConfigurableApplicationContext service : List.of(this.stack.ingest, this.stack.worker, this.stack.booking)) {
            List<String> names = List.of(service.getBeanNamesForType(ProducerFactory.class));
            assertThat(names).isNotEmpty();
            for (String name : names) {
                Map<String, Object> config = service.getBean(name, ProducerFactory.class).getConfigurationProperties();
                assertThat(String.valueOf(config.get(ProducerConfig.ACKS_CONFIG))).as(name).isIn("all", "-1");
                assertThat(String.valueOf(config.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG))).as(name)
                    .isEqualTo("true");
            }
        }
    }

    @Test
    void theServicePortsShowProbesButNoMetrics() {
        for (ConfigurableApplicationContext service : List.of(this.stack.ingest, this.stack.worker, this.stack.booking)) {
            assertThat(get(service, "/livez").status()).isEqualTo(200);
            assertThat(get(service, "/readyz").status()).isEqualTo(200);
            for (String path : List.of("/actuator/prometheus", "/actuator/metrics", "/actuator/health",
                    "/actuator")) {
                assertThat(get(service, path).status()).as(path).isEqualTo(404);
            }
            assertThat(manage(service, "/actuator/prometheus").status()).isEqualTo(200);
        }
    }

    @Test
    void aSaleShowsInTheMetrics() {
        this.productId = ownProduct();
        this.stack.configure(this.productId, 1, 1000, 600, true);
        String first = this.stack.enter(this.productId, "metrics-0").text("token");
        String second = this.stack.enter(this.productId, "metrics-1").text("token");
        this.stack.enter(this.productId, "bad user");
        // an enter naming a user without the shop's enter key, which a line of the shop's own users refuses
        assertThat(this.stack.visit(this.productId, "{\"userId\":\"metrics-2\"}").status()).isEqualTo(401);
        await().atMost(Duration.ofSeconds(20))
            .until(() -> "WAITING".equals(this.stack.status(this.productId, second).text("status"))
                    && "AVAILABLE".equals(this.stack.status(this.productId, first).text("status")));
        this.stack.setStock(this.productId, 5);
        assertThat(this.stack.book(this.productId, first).status()).isEqualTo(201);

        assertThat(get(this.stack.ingest, "/livez").status()).isEqualTo(200);
        String ingest = manage(this.stack.ingest, "/actuator/prometheus").response().body();
        assertThat(ingest).contains("queuegate_enters_total{outcome=\"accepted\"")
            .contains("queuegate_problems_total{code=\"invalid_request\"")
            .contains("queuegate_enters_total{outcome=\"enter_key_required\"")
            .contains("queuegate_status_polls_total{")
            .contains("queuegate_script_seconds_count{script=\"read_status\"")
            .contains("queuegate_enter_round_seconds_count");
        // enters and polls are counted above, not timed per request (BurstPathObservations)
        assertThat(ingest.lines().filter(line -> line.startsWith("http_server_requests_seconds_count{")))
            .noneMatch(line -> line.contains("method=\"POST\"") && line.contains("uri=\"/api/v1/queues/{productId}/entries\""))
            .noneMatch(line -> line.contains("method=\"GET\"")
                    && line.contains("uri=\"/api/v1/queues/{productId}/entries/{token}\""))
            .anyMatch(line -> line.contains("uri=\"/livez\""));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                manage(this.stack.worker, "/actuator/prometheus").response().body())
            .contains("queuegate_admissions_total")
            .contains("queuegate_line_appended_total")
            .contains("queuegate_queue_waiting{product=\"" + this.productId + "\"")
            .contains("queuegate_script_seconds_count{script=\"admit_batch\"")
            .contains("kafka_consumer_fetch_manager_records_lag"));
        assertThat(manage(this.stack.booking, "/actuator/prometheus").response().body())
            .contains("queuegate_bookings_total{outcome=\"booked\"")
            .contains("queuegate_script_seconds_count{script=\"consume_admission\"");

        // The dashboard shipped in ops/ only plots series the services really export.
        String exported = Stream.of(this.stack.ingest, this.stack.worker, this.stack.booking)
            .map(service -> manage(service, "/actuator/prometheus").response().body())
            .collect(Collectors.joining("\n"));
        Set<String> plotted = new TreeSet<>();
        Matcher names = Pattern.compile("\\b((?:queuegate|kafka_consumer|http_server)_[a-z_]+)")
            .matcher(readDashboard());
        while (names.find()) {
            plotted.add(names.group(1));
        }
        assertThat(plotted).hasSizeGreaterThan(10)
            .allSatisfy(series -> assertThat(exported).as(series).contains(series));
        // every worker reports the same Redis counts per product: a sum over workers would count them twice
        assertThat(readDashboard()).contains("max by (product) (queuegate_queue_waiting)")
            .doesNotContain("sum by (product) (queuegate_queue_");
    }

    private static String readDashboard() {
        try {
            return Files.readString(Path.of("..", "ops", "grafana", "dashboards", "queuegate.json"));
        }
        catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    @Test
    void aRequestIdFollowsAnEnterIntoTheLog() {
        this.productId = ownProduct();
        this.stack.configure(this.productId, 1, 1000, 600, true, "visitor");
        String requestId = "trace-" + java.util.UUID.randomUUID();
        Reply entered = this.stack.send("POST", Stack.url(this.stack.ingest, "/api/v1/queues/" + this.productId
                + "/entries"), "{}", "application/json", Map.of("X-Request-Id", requestId));
        assertThat(entered.status()).isEqualTo(202);
        assertThat(entered.header("X-Request-Id")).isEqualTo(requestId);
        Reply insane = this.stack.send("GET", Stack.url(this.stack.ingest, "/livez"), null, null,
                Map.of("X-Request-Id", "bad id with spaces"));
        assertThat(insane.header("X-Request-Id")).isNotEqualTo("bad id with spaces").hasSize(36);

        AtomicBoolean logged = new AtomicBoolean();
        this.stack.readFromStart(List.of(Stack.ENTRIES_TOPIC), this.productId, (record) -> {
            if (record.value().contains(requestId)) {
                logged.set(true);
            }
        }, logged::get);
    }

    @Test
    void aBookingsTraceTravelsWithItsRecordThroughKafka() {
        this.productId = ownProduct();
        this.stack.configure(this.productId, 1, 1000, 600, true);
        this.stack.setStock(this.productId, 5);
        String token = this.stack.enter(this.productId, "traced-booker").text("token");
        awaitStatus(this.productId, token, "AVAILABLE");
        String traceId = java.util.HexFormat.of().formatHex(java.nio.ByteBuffer.allocate(16)
            .putLong(java.util.concurrent.ThreadLocalRandom.current().nextLong())
            .putLong(java.util.concurrent.ThreadLocalRandom.current().nextLong()).array());
        Reply booked = this.stack.send("POST", Stack.url(this.stack.booking, "/api/v1/bookings"),
                "{\"productId\":%d,\"token\":\"%s\",\"quantity\":1}".formatted(this.productId, token),
                "application/json", Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        assertThat(booked.status()).isEqualTo(201);

        List<String> traceparents = new java.util.ArrayList<>();
        this.stack.readFromStart(List.of("queuegate.bookings"), this.productId, (record) -> {
            var header = record.headers().lastHeader("traceparent");
            if (header != null) {
                traceparents.add(new String(header.value(), java.nio.charset.StandardCharsets.UTF_8));
            }
        }, () -> !traceparents.isEmpty());
        // the caller's trace, continued by the service: same trace id, the service's own span
        assertThat(traceparents.getFirst()).matches("00-" + traceId + "-[0-9a-f]{16}-0[01]")
            .doesNotContain("00f067aa0ba902b7");
    }

    @Test
    void aServiceRefusesToStartWithTheDevelopmentSecretsOutsideTheDevProfile() {
        assertThatThrownBy(() -> this.stack.start(AdmissionWorkerApplication.class,
                AdmissionWorkerApplication.CONFIG_NAME, "queuegate.admin.token=dev-admin-token",
                "spring.kafka.listener.auto-startup=false"))
            .hasStackTraceContaining("ADMIN_TOKEN must be set");
        assertThatThrownBy(() -> this.stack.start(IngestApplication.class, IngestApplication.CONFIG_NAME,
                "queuegate.token.secret=dev-only-token-secret-change-me"))
            .hasStackTraceContaining("QUEUE_TOKEN_SECRET must be set");
        assertThatThrownBy(() -> this.stack.start(IngestApplication.class, IngestApplication.CONFIG_NAME,
                "queuegate.ingest.enter-keys=" + Stack.ADMIN_TOKEN))
            .hasStackTraceContaining("ENTER_KEY must not be the admin token");
        try (ConfigurableApplicationContext dev = this.stack.start(IngestApplication.class,
                IngestApplication.CONFIG_NAME, "queuegate.token.secret=dev-only-token-secret-change-me",
                "spring.profiles.active=dev")) {
            assertThat(dev.isRunning()).isTrue();
        }
    }

    @Test
    void everyServiceDescribesItsApi() {
        assertThat(get(this.stack.ingest, "/v3/api-docs").json().at("/paths").propertyNames())
            .contains("/api/v1/queues/{productId}/entries", "/api/v1/queues/{productId}/entries/{token}");
        assertThat(get(this.stack.worker, "/v3/api-docs").json().at("/paths").propertyNames())
            .contains("/api/v1/queues/{productId}");
        assertThat(get(this.stack.booking, "/v3/api-docs").json().at("/paths").propertyNames())
            .contains("/api/v1/bookings", "/api/v1/bookings/{bookingId}", "/api/v1/products/{productId}/stock");
        assertThat(get(this.stack.ingest, "/swagger-ui.html").status()).isIn(200, 302);
        JsonNode statusSchema = get(this.stack.ingest, "/v3/api-docs").json()
            .at("/components/schemas/EntryStatusResponse");
        assertThat(statusSchema.at("/properties").propertyNames()).contains("opensAt", "pollAfterMs", "etaSeconds");
        assertThat(statusSchema.at("/properties/status/enum").valueStream().map(JsonNode::asString))
            .contains("SOLD_OUT");
        assertThat(get(this.stack.worker, "/v3/api-docs").json().at("/components/schemas/QueueSettings/properties")
            .propertyNames()).contains("maxPollsPerSecond", "abandonAfterSeconds", "opensAt");
    }
}
