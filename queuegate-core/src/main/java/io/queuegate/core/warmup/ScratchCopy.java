package io.queuegate.core.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * A scratch copy of a service, started in the service's own JVM before the service says it is ready: a warm-up
 * drives it, and since it runs the same classes, what the JIT compiles for it is what the service will run.
 *
 * <p>It leaves no trace anyone reads. Its Redis keys live under a key prefix of their own and its topics under
 * names of their own ({@link #topic(String)}, which its caller hands to it as settings); both are deleted when it
 * closes, with the service's own Redis and Kafka clients. Its metrics are a registry of its own, which goes with it;
 * it serves on a free loopback port, exposes no management port and leaves logging alone, which is the JVM's and
 * configured once by the service (a second configuration, and its clean-up when the copy closes, would be the
 * service's too).
 *
 * <p>A service killed while it warms up cannot delete them; the next warm-up of any instance deletes what such a one
 * left, in the same pass as its own ({@link #LEFTOVER_AGE} old: the copy's names carry the time it started, and no
 * warm-up runs that long).
 */
public final class ScratchCopy implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScratchCopy.class);

    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(10);

    private static final String NAME = "warm-up-";

    /** A scratch copy's keys or topics this old belong to a warm-up that will not delete them. */
    static final Duration LEFTOVER_AGE = Duration.ofMinutes(15);

    private final String id = NAME + System.currentTimeMillis() + "-" + UUID.randomUUID().toString().substring(0, 8);

    private final String servicePrefix;

    private final String keyPrefix;

    private final StringRedisTemplate redis;

    private final KafkaAdmin kafka;

    private ConfigurableApplicationContext context;

    private final Map<String, Object> shared = new LinkedHashMap<>();

    /**
     * @param keyPrefix the service's own key prefix ({@code queuegate.redis.key-prefix}); the copy's goes after it
     * @param redis the service's Redis, which deletes the copy's keys after it
     * @param kafka the service's Kafka, which deletes the copy's topics after it
     */
    public ScratchCopy(String keyPrefix, StringRedisTemplate redis, KafkaAdmin kafka) {
        this.servicePrefix = keyPrefix;
        this.keyPrefix = keyPrefix + this.id + ":";
        this.redis = redis;
        this.kafka = kafka;
    }

    /** A name for one of the copy's topics: nothing but the copy reads or writes it. */
    public String topic(String role) {
        return topicPrefix() + role;
    }

    /**
     * Gives the copy one of the service's own objects, which it then uses instead of making one of its own, and leaves
     * alone when it closes: those whose end would throw away what the JIT compiled for the service, such as event
     * loops (a loop that shuts down takes branches the service's loops never took).
     *
     * @param name the name of the copy's bean; the copy's configuration must back off when one of its type is there
     */
    public ScratchCopy share(String name, Object bean) {
        this.shared.put(name, bean);
        return this;
    }

    /**
     * Starts {@code application} again, with the service's arguments, the copy's key prefix and these settings over
     * everything else.
     */
    public ConfigurableApplicationContext start(Class<?> application, String configName, String[] arguments,
            Map<String, Object> settings) {
        SpringApplication copy = new SpringApplication(application);
        copy.setDefaultProperties(Map.of("spring.config.name", configName));
        copy.setBannerMode(Banner.Mode.OFF);
        copy.setLogStartupInfo(false);
        copy.setListeners(copy.getListeners().stream()
            .filter((listener) -> !(listener instanceof LoggingApplicationListener))
            .toList());
        Map<String, Object> scratch = new HashMap<>();
        scratch.put("server.port", "0");
        scratch.put("server.address", "127.0.0.1");
        scratch.put("server.shutdown", "immediate");
        scratch.put("management.server.port", "-1");
        scratch.put("management.metrics.use-global-registry", "false");
        scratch.put("queuegate.redis.key-prefix", this.keyPrefix);
        scratch.putAll(settings);
        copy.addInitializers((context) -> {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("scratch-copy", scratch));
            this.shared.forEach(context.getBeanFactory()::registerSingleton);
        });
        this.context = copy.run(arguments);
        return this.context;
    }

    /**
     * Stops the copy, then deletes its keys and its topics, and those that killed warm-ups left; what cannot be deleted
     * is logged, not thrown.
     */
    @Override
    public void close() {
        if (this.context != null) {
            this.context.close();
        }
        long before = System.currentTimeMillis() - LEFTOVER_AGE.toMillis();
        unlinkMatching(this.servicePrefix + NAME + "*", (key) -> key.startsWith(this.keyPrefix)
                || startedBefore(key.substring(this.servicePrefix.length()), before));
        deleteTopicsMatching((topic) -> topic.startsWith(topicPrefix()) || (topic.startsWith("queuegate." + NAME)
                && startedBefore(topic.substring("queuegate.".length()), before)));
    }

    /** Whether a name that starts with a copy's id ({@code warm-up-<millis>-...}) is of a copy started before then. */
    static boolean startedBefore(String name, long millis) {
        String rest = name.substring(NAME.length());
        int end = rest.indexOf('-');
        try {
            return end > 0 && Long.parseLong(rest.substring(0, end)) < millis;
        }
        catch (NumberFormatException ex) {
            return false;
        }
    }

    private void unlinkMatching(String pattern, Predicate<String> which) {
        try (Cursor<String> keys = this.redis.scan(ScanOptions.scanOptions().match(pattern).count(1_000).build())) {
            List<String> batch = new ArrayList<>();
            while (keys.hasNext()) {
                String key = keys.next();
                if (which.test(key)) {
                    batch.add(key);
                }
                if (batch.size() == 1_000 || (!keys.hasNext() && !batch.isEmpty())) {
                    this.redis.unlink(batch);
                    batch.clear();
                }
            }
        }
        catch (RuntimeException ex) {
            log.warn("Could not delete warm-up keys {}: {}", pattern, ex.toString());
        }
    }

    private void deleteTopicsMatching(Predicate<String> which) {
        try (Admin admin = Admin.create(this.kafka.getConfigurationProperties())) {
            List<String> topics = admin.listTopics().names().get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .stream()
                .filter(which)
                .toList();
            if (!topics.isEmpty()) {
                admin.deleteTopics(topics).all().get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("Could not delete warm-up topics: {}", ex.toString());
        }
    }

    private String topicPrefix() {
        return "queuegate." + this.id + ".";
    }
}
