package io.queuegate.admission;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * People who reach a line with free capacity are admitted as soon as the writer has put them in it, not at the next
 * admission tick: this worker ticks once at start and then not for an hour, so only the step that follows the
 * writer's append can admit them.
 */
class AdmittedOnArrivalTests extends WorkerTestSupport {

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    @Test
    void theHeadOfAGrowingLineIsAdmittedWithoutWaitingForATick() {
        long product = newProduct();
        new QueueStore(this.redis).save(product, new QueueSettings(5, 1_000, 60, true));

        List<String> users;
        try (KafkaProducer<String, String> producer = producer()) {
            users = enter(producer, this.codec, product, "arrival", 12);
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(entry(product)).containsExactlyInAnyOrderElementsOf(users.subList(0, 5));
            assertThat(waiting(product)).containsExactlyElementsOf(users.subList(5, 12));
        });
    }

    private Set<String> entry(long product) {
        Set<String> members = this.redis.opsForZSet().range(QueueKeys.of(product).entry(), 0, -1);
        return members == null ? Set.of() : members;
    }

    private KafkaProducer<String, String> producer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
