package io.queuegate.admission;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that loses the lines (restarted without persistence, wiped, failed over without its last writes) gets
 * them back from the log, in log order, with the same places: the writer commits its offsets with the id of the
 * Redis it applied them to, and reads from the start of the log when Redis no longer carries that id. The loss is
 * made here by deleting the product's keys and the id, the Redis being shared with other tests.
 */
class LineRebuildTests extends WorkerTestSupport {

    private static final Duration REBUILT = Duration.ofSeconds(60);

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    private KafkaProducer<String, String> producer;

    @BeforeEach
    void openProducer() {
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void closeProducer() {
        this.producer.close(Duration.ofSeconds(5));
    }

    @Test
    void linesLostWhileTheWriterRunsAreRebuiltInLogOrder() {
        long product = newProduct();
        List<String> users = enter(product, "run", 500);
        await().atMost(REBUILT).until(() -> waiting(product).size() == 500);
        assertThat(this.redis.opsForValue().get(QueueKeys.LINE_EPOCH)).isNotNull();

        loseTheLines(product);
        // the next batch finds Redis changed
        users.addAll(enter(product, "after", 1));

        await().atMost(REBUILT).until(() -> waiting(product).size() == 501);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(waitingScores(product).get(users.getLast())).isEqualTo(501.0);
        assertThat(stat(product, "enteredTotal")).isEqualTo(501);
    }

    @Test
    void anEmptyRedisFoundOnAssignmentIsRefilledFromTheLog() {
        long product = newProduct();
        List<String> users = enter(product, "assign", 300);
        await().atMost(REBUILT).until(() -> waiting(product).size() == 300);

        MessageListenerContainer writer = this.listeners.getListenerContainer("waiting-writer");
        writer.stop();
        try {
            loseTheLines(product);
            assertThat(waiting(product)).isEmpty();
        }
        finally {
            writer.start();
        }

        await().atMost(REBUILT).until(() -> waiting(product).size() == 300);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(waitingScores(product).get(users.getLast())).isEqualTo(300.0);
        assertThat(stat(product, "seq")).isEqualTo(300);
    }

    private void loseTheLines(long product) {
        this.redis.delete(QueueKeys.of(product).all());
        this.redis.delete(QueueKeys.LINE_EPOCH);
    }

    private List<String> enter(long product, String prefix, int count) {
        return enter(this.producer, this.codec, product, prefix, count);
    }
}
