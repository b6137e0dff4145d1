package io.queuegate.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The tests that take a Redis away from under the line writer: the worker under test is a second one, on a Redis of
 * the test's own (which the test kills, restarts or fails over) and the shared embedded broker, in a consumer group of
 * its own so it reads every enter of the topic. The shared test worker applies the same enters to the shared Redis,
 * which these tests do not read. Only the writer works: its admission ticks are an hour apart.
 */
abstract class OwnRedisWorkerTestSupport extends WorkerTestSupport {

    /** How long the writer may take to notice a lost Redis, restore the sale and read the log again. */
    static final Duration RESTORED = Duration.ofSeconds(60);

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    /** The worker's Redis, wherever its settings lead it. */
    StringRedisTemplate lines;

    /** Sends to the shared broker, acknowledged by all its replicas. */
    KafkaProducer<String, String> producer;

    private ConfigurableApplicationContext worker;

    /** Starts the worker under test, its Redis given by {@code redis} ({@code --spring.data.redis.*} arguments). */
    void startWorker(String... redis) {
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        List<String> args = new ArrayList<>(List.of("--spring.config.name=" + AdmissionWorkerApplication.CONFIG_NAME,
                "--server.port=0", "--management.server.port=0", "--spring.main.banner-mode=off",
                "--spring.kafka.bootstrap-servers=" + this.brokers,
                "--spring.kafka.consumer.group-id=own-redis-" + UUID.randomUUID(),
                "--queuegate.admission.tick-interval=1h", "--queuegate.admission.append-chunk=100",
                "--queuegate.admission.warm-up.duration=0",
                "--queuegate.token.secret=" + TOKEN_SECRET, "--queuegate.admin.token=" + ADMIN_TOKEN));
        args.addAll(List.of(redis));
        this.worker = new SpringApplicationBuilder(AdmissionWorkerApplication.class)
            .initializers(new WithoutAuditRelay())
            .run(args.toArray(String[]::new));
        this.lines = this.worker.getBean(StringRedisTemplate.class);
    }

    /** The worker first, while its Redis still answers, then the test's Redis servers. */
    @AfterEach
    void stopWorkerAndRedis() throws InterruptedException {
        if (this.producer != null) {
            this.producer.close(Duration.ofSeconds(5));
        }
        if (this.worker != null) {
            this.worker.close();
        }
        stopRedis();
    }

    /** Stops every Redis process the test started. */
    abstract void stopRedis() throws InterruptedException;

    /** The product's line where the worker under test writes it. */
    @Override
    List<String> waiting(long product) {
        Set<String> members = this.lines.opsForZSet().range(QueueKeys.of(product).waiting(), 0, -1);
        return members == null ? List.of() : List.copyOf(members);
    }

    /** Enter events of {@code count} users named after {@code prefix}, acknowledged by the broker; the users in order. */
    List<String> enter(long product, String prefix, int count) {
        return enter(this.producer, this.codec, product, prefix, count);
    }
}
