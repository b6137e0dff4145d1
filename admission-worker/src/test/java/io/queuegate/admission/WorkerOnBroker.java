package io.queuegate.admission;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Whole admission workers of one test, started on a broker of the test class's own and the real, shared Redis: the
 * test's run has a key prefix, topics and consumer groups of its own, so its workers see its queues only and no other
 * test's records. Closing it stops every worker it started and deletes the keys of its run.
 */
public final class WorkerOnBroker implements AutoCloseable {

    private static final StringRedisTemplate redis = TestRedis.template();

    private final EmbeddedKafkaKraftBroker kafka;

    private final String run;

    private final Keyspace keyspace;

    private final String tokenSecret;

    private final String adminToken;

    private final HttpClient http = HttpClient.newHttpClient();

    private final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    private final List<Long> products = new ArrayList<>();

    private KafkaProducer<String, String> producer;

    /** A new run on {@code kafka}, its prefix, topics and secrets named after {@code name}. */
    public WorkerOnBroker(EmbeddedKafkaKraftBroker kafka, String name) {
        this.kafka = kafka;
        this.run = name + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.keyspace = new Keyspace(this.run + ":");
        this.tokenSecret = TestSecrets.random(name + "-token-secret");
        this.adminToken = TestSecrets.random(name + "-admin-token");
    }

    /** The run's keys in the shared Redis. */
    public Keyspace keyspace() {
        return this.keyspace;
    }

    /** The run's topic, consumer group or other Kafka name for {@code name}. */
    public String topic(String name) {
        return this.run + "." + name;
    }

    /** A random product id whose keys are deleted on close. */
    public long newProduct() {
        long product = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
        this.products.add(product);
        return product;
    }

    /**
     * Starts a worker on the run's prefix and topics, ticking every 50 ms and relaying the audit stream every 100 ms;
     * {@code overrides} add or replace settings.
     */
    public ConfigurableApplicationContext start(Map<String, String> overrides,
            ApplicationContextInitializer<?>... initializers) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.config.name", AdmissionWorkerApplication.CONFIG_NAME);
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        properties.put("spring.main.banner-mode", "off");
        properties.put("spring.kafka.bootstrap-servers", this.kafka.getBrokersAsString());
        properties.put("spring.kafka.consumer.group-id", topic("writer"));
        properties.put("queuegate.redis.key-prefix", this.keyspace.prefix());
        properties.put("queuegate.token.secret", this.tokenSecret);
        properties.put("queuegate.admin.token", this.adminToken);
        properties.put("queuegate.admission.warm-up.duration", "0");
        properties.put("queuegate.admission.tick-interval", "50ms");
        properties.put("queuegate.admission.audit-interval", "100ms");
        properties.put("queuegate.admission.partitions", "2");
        properties.put("queuegate.admission.topic", topic("entries"));
        properties.put("queuegate.admission.audit-topic", topic("audit"));
        properties.put("queuegate.admission.dead-letter-topic", topic("entries.DLT"));
        properties.put("queuegate.admission.sale-topic", topic("sale"));
        properties.put("queuegate.admission.stock-topic", topic("stock"));
        properties.put("queuegate.admission.bookings-topic", topic("bookings"));
        properties.put("queuegate.admission.leaves-topic", topic("leaves"));
        properties.put("queuegate.admission.webhook.topic", topic("admissions"));
        properties.put("queuegate.admission.webhook.dead-letter-topic", topic("admissions.DLT"));
        properties.put("queuegate.admission.webhook.group", topic("webhooks"));
        properties.putAll(overrides);
        ConfigurableApplicationContext worker = new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .initializers(initializers)
            .run(properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toArray(String[]::new));
        this.workers.add(worker);
        return worker;
    }

    /** One enter event per user, as ingest publishes them; returns the users once the broker has them. */
    public List<String> enter(ConfigurableApplicationContext worker, long product, String prefix, int count) {
        TokenCodec codec = worker.getBean(TokenCodec.class);
        List<String> users = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String user = "%s-%05d".formatted(prefix, i);
            users.add(user);
            producer().send(new ProducerRecord<>(topic("entries"), Long.toString(product), JsonMapper.shared()
                .writeValueAsString(new EntryRequested(product, codec.issue(product, user).value(), user, "r-" + i,
                        1L))));
        }
        producer().flush();
        return users;
    }

    /** Sends {@code value} as JSON to {@code topic} (one of {@link #topic}'s) and waits for the broker to hold it. */
    public void send(String topic, String key, Object value) throws Exception {
        producer().send(new ProducerRecord<>(topic, key, JsonMapper.shared().writeValueAsString(value))).get();
    }

    /** The run's producer, made at its first send (acks=all) and closed with the run. */
    private KafkaProducer<String, String> producer() {
        if (this.producer == null) {
            this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    this.kafka.getBrokersAsString(), ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
                    new StringSerializer());
        }
        return this.producer;
    }

    /** Every record the topic holds now, in poll order; none when it does not exist. */
    public List<ConsumerRecord<String, byte[]>> records(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.kafka.getBrokersAsString(),
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            if (partitions.isEmpty()) {
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            while (!ends.isEmpty()) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                ends.entrySet().removeIf(end -> consumer.position(end.getKey()) >= end.getValue());
            }
            return records;
        }
    }

    /** Sets the product's queue through the worker's admin API. */
    public HttpResponse<String> putQueue(ConfigurableApplicationContext worker, long product,
            Map<String, ?> settings) throws Exception {
        return admin(HttpRequest.newBuilder(uri(worker, "/api/v1/queues/" + product))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(JsonMapper.shared().writeValueAsString(settings))));
    }

    /** Reads the product's queue through the worker's admin API. */
    public HttpResponse<String> getQueue(ConfigurableApplicationContext worker, long product) throws Exception {
        return admin(HttpRequest.newBuilder(uri(worker, "/api/v1/queues/" + product)));
    }

    /** Sends the request with the run's admin token. */
    public HttpResponse<String> admin(HttpRequest.Builder request) throws Exception {
        return this.http.send(request.header("Authorization", "Bearer " + this.adminToken).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The worker's address for {@code path}. */
    public static URI uri(ConfigurableApplicationContext worker, String path) {
        return URI.create("http://127.0.0.1:" + worker.getEnvironment().getProperty("local.server.port") + path);
    }

    @Override
    public void close() {
        if (this.producer != null) {
            this.producer.close(Duration.ofSeconds(5));
        }
        this.workers.forEach(ConfigurableApplicationContext::close);
        this.http.close();
        for (long product : this.products) {
            redis.delete(this.keyspace.product(product).all());
        }
        redis.delete(List.of(this.keyspace.registry(QueueKeys.REGISTRY),
                this.keyspace.admissionWorkers(QueueKeys.REGISTRY), this.keyspace.lineEpoch()));
    }
}
