package io.queuegate.ingest.warmup;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RedisKeyProperties;
import io.queuegate.ingest.IngestApplication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.stereotype.Component;

/**
 * Runs the burst's code at start, before the service says it is ready, so that the first seconds of a sale meet
 * compiled code: a cold JVM answered 3 % of its warm enter rate in its first five seconds. Spring Boot reports
 * readiness ({@code /readyz}, and {@code /actuator/health}, which {@code ./run.sh --detach} waits for) only once
 * every runner has returned.
 *
 * <p>What runs is the service itself: a scratch copy of this application in the same JVM, so the same classes (and
 * so the same compiled code), on a loopback port of its own, driven by clients that enter and poll until
 * {@code queuegate.ingest.warm-up.enters} went through or {@code queuegate.ingest.warm-up.duration} is over. The copy leaves no trace anyone reads: its Redis keys have a prefix of their own
 * and are deleted after, its enters go to no broker ({@link DryKafka}), its metrics are its own registry's and go
 * with it, and it does not touch logging.
 */
@Component
class WarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

    /** The scratch copy's one queue: open, and generous, so that every enter is accepted. */
    private static final long PRODUCT = 1;

    private final WarmUpProperties properties;

    private final RedisKeyProperties keys;

    private volatile Outcome outcome;

    WarmUp(WarmUpProperties properties, RedisKeyProperties keys) {
        this.properties = properties;
        this.keys = keys;
    }

    /**
     * Warms up, or says why it could not: a service whose Redis or broker is not there yet starts cold rather than
     * not at all (its readiness says what it lacks).
     */
    @Override
    public void run(ApplicationArguments arguments) {
        if (this.properties.duration().isZero() || this.properties.scratch()) {
            return;
        }
        try {
            warmUp(arguments);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (Exception ex) {
            log.warn("The warm-up failed; starting without it: {}", ex.toString());
        }
    }

    private void warmUp(ApplicationArguments arguments) throws Exception {
        long started = System.nanoTime();
        String prefix = this.keys.keyPrefix() + "warm-up-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext scratch = scratchCopy(arguments, prefix)) {
            QueueStore queues = scratch.getBean(QueueStore.class);
            queues.save(PRODUCT, new QueueSettings(1_000, 1_000, 60, true));
            try {
                int port = scratch.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
                Outcome done = drive(port, System.nanoTime() + this.properties.duration().toNanos());
                this.outcome = done;
                log.info("Warmed up in {} ms: {} enters accepted and {} polls answered by a scratch copy of the service",
                        Duration.ofNanos(System.nanoTime() - started).toMillis(), done.accepted(), done.answered());
            }
            finally {
                queues.delete(PRODUCT);
            }
        }
    }

    /** This application again, on a free loopback port, with its keys under {@code prefix} and no broker. */
    private static ConfigurableApplicationContext scratchCopy(ApplicationArguments arguments, String prefix) {
        SpringApplication application = new SpringApplication(IngestApplication.class);
        application.setDefaultProperties(Map.of("spring.config.name", IngestApplication.CONFIG_NAME));
        application.setWebApplicationType(WebApplicationType.REACTIVE);
        application.setBannerMode(org.springframework.boot.Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        // logging is the JVM's, configured once by the service; a second configuration (and its clean-up when the
        // copy closes) would be the service's too
        application.setListeners(application.getListeners().stream()
            .filter((listener) -> !(listener instanceof LoggingApplicationListener))
            .toList());
        Map<String, Object> scratch = new HashMap<>();
        scratch.put("server.port", "0");
        scratch.put("server.address", "127.0.0.1");
        scratch.put("server.shutdown", "immediate");
        scratch.put("management.server.port", "-1");
        scratch.put("management.metrics.use-global-registry", "false");
        scratch.put("queuegate.redis.key-prefix", prefix);
        scratch.put("queuegate.ingest.warm-up.scratch", "true");
        scratch.put("queuegate.ingest.noop-endpoint", "false");
        scratch.put("spring.kafka.admin.auto-create", "false");
        application.addInitializers((context) -> context.getEnvironment().getPropertySources()
            .addFirst(new MapPropertySource("warm-up", scratch)));
        return application.run(arguments.getSourceArgs());
    }

    /** What the last warm-up did; null before one ran. */
    Outcome outcome() {
        return this.outcome;
    }

    /** Enters and polls, each client on a connection of its own, until the deadline. */
    private Outcome drive(int port, long deadline) throws Exception {
        AtomicLong enters = new AtomicLong();
        AtomicLong polls = new AtomicLong();
        URI entries = URI.create("http://127.0.0.1:" + port + "/api/v1/queues/" + PRODUCT + "/entries");
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(clients).build()) {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < this.properties.connections(); c++) {
                String client = "c" + c + "-";
                running.add(clients.submit(() -> {
                    for (long n = 0; System.nanoTime() < deadline && enters.get() < this.properties.enters(); n++) {
                        HttpResponse<String> entered = http.send(HttpRequest.newBuilder(entries)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"" + client + n + "\"}"))
                            .build(), HttpResponse.BodyHandlers.ofString());
                        if (entered.statusCode() != 202) {
                            continue;
                        }
                        enters.incrementAndGet();
                        String token = JsonMapper.shared().readTree(entered.body()).get("token").asString();
                        HttpResponse<Void> polled = http.send(HttpRequest.newBuilder(URI.create(entries + "/" + token))
                            .GET().build(), HttpResponse.BodyHandlers.discarding());
                        if (polled.statusCode() == 200) {
                            polls.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
        }
        return new Outcome(enters.get(), polls.get());
    }

    /**
     * @param accepted enters the scratch copy answered 202
     * @param answered polls it answered 200
     */
    record Outcome(long accepted, long answered) {
    }
}
