package io.queuegate.admission;

import java.util.Map;

import io.queuegate.core.testing.PrivateBroker;
import io.queuegate.core.testing.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A test class with a broker of its own and, for each test, a run of its own ({@link WorkerOnBroker}: a key prefix and
 * topics) with one worker started on the run's defaults: for tests that make Redis lose what every worker on the
 * shared Redis would see, such as the lines' id.
 */
abstract class OwnRunTestSupport {

    static final StringRedisTemplate redis = TestRedis.template();

    private static EmbeddedKafkaKraftBroker kafka;

    WorkerOnBroker run;

    ConfigurableApplicationContext worker;

    @BeforeAll
    static void startKafka() {
        kafka = PrivateBroker.start(2);
    }

    @AfterAll
    static void stopKafka() {
        kafka.destroy();
    }

    @BeforeEach
    void startWorker() {
        this.run = new WorkerOnBroker(kafka, getClass().getSimpleName());
        this.worker = this.run.start(Map.of());
    }

    @AfterEach
    void stopWorker() {
        this.run.close();
    }
}
