package io.queuegate.admission;

import java.time.Duration;
import java.util.Map;

import io.queuegate.core.event.QueueConfigured;
import io.queuegate.core.event.StockSet;
import io.queuegate.core.event.Topics;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that lost the sale gets each product's stock back from the stock topic, the booking service's own: the
 * last setting there wins over one an older booking service left in the sale topic, a product set only there (before
 * the upgrade) keeps its setting, and the units booked since a setting are taken off it. The stock topic gives stock
 * settings only: a queue's settings planted there (a webhook URL of a stranger's) are not restored. The loss is made
 * by deleting the products' keys and the lines' id, the Redis being shared with other tests.
 */
class StockTopicRestoreTests extends WorkerTestSupport {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    QueueStore queues;

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
    void theStockTopicsSettingsAreRestoredAfterARedisLossAndWinOverTheSaleTopics() throws Exception {
        long upgraded = newProduct();
        long legacy = newProduct();
        long planted = newProduct();
        // before the upgrade: both products' stock set on the sale topic
        send(Topics.SALE, StockSet.key(upgraded), new StockSet(upgraded, 50, 0));
        send(Topics.SALE, StockSet.key(legacy), new StockSet(legacy, 30, 0));
        // after it: the upgraded product's stock set again, on the stock topic, then 3 units of it booked
        send(Topics.STOCK, StockSet.key(upgraded), new StockSet(upgraded, 20, 0));
        send(BOOKINGS_TOPIC, Long.toString(upgraded), Map.of("bookingId", upgraded + "-b1", "productId", upgraded,
                "userId", "booker", "quantity", 3, "bookedAt", 1L));
        // a queue's settings written to the stock topic, as a stolen booking credential could
        send(Topics.STOCK, QueueConfigured.key(planted), new QueueConfigured(planted, new QueueSettings(10, 10, 60,
                true, null, null, null, null, null, null, null, "https://stranger.example/hook", "secret")));

        QueueKeys keys = QueueKeys.of(upgraded);
        this.redis.delete(keys.all());
        this.redis.delete(QueueKeys.of(legacy).all());
        this.redis.delete(QueueKeys.LINE_EPOCH);

        await().atMost(RESTORED)
            .until(() -> this.redis.hasKey(keys.stock()) && this.redis.hasKey(QueueKeys.of(legacy).stock()));
        assertThat(this.redis.opsForValue().get(keys.stock())).as("the stock topic's setting, minus the booking")
            .isEqualTo("17");
        assertThat(this.redis.opsForHash().get(keys.stats(), "stockSetting")).isEqualTo("20:0");
        assertThat(this.redis.opsForSet().isMember(keys.gone(), "booker")).isTrue();
        assertThat(this.redis.opsForValue().get(QueueKeys.of(legacy).stock())).as("the sale topic's, from before")
            .isEqualTo("30");
        assertThat(this.queues.findSettings(planted)).as("settings from the stock topic").isEmpty();
    }

    private void send(String topic, String key, Object value) throws Exception {
        this.producer.send(new ProducerRecord<>(topic, key, JsonMapper.shared().writeValueAsString(value))).get();
    }
}
