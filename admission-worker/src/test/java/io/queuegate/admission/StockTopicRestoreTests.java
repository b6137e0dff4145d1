package io.queuegate.admission;

import java.time.Duration;
import java.util.Map;

import io.queuegate.core.event.QueueConfigured;
import io.queuegate.core.event.StockSet;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that lost the sale gets each product's stock back from the stock topic, the booking service's own: the
 * last setting there wins over one an older booking service left in the sale topic, a product set only there (before
 * the upgrade) keeps its setting, and the units booked since a setting are taken off it. The stock topic gives stock
 * settings only: a queue's settings planted there (a webhook URL of a stranger's) are not restored. The loss is made
 * by deleting the products' keys and the lines' id of the test's own keyspace ({@link OwnRunTestSupport}), so that no
 * other worker on the shared Redis sees a loss.
 */
class StockTopicRestoreTests extends OwnRunTestSupport {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    @Test
    void theStockTopicsSettingsAreRestoredAfterARedisLossAndWinOverTheSaleTopics() throws Exception {
        long upgraded = this.run.newProduct();
        long legacy = this.run.newProduct();
        long planted = this.run.newProduct();
        String sale = this.run.topic("sale");
        String stock = this.run.topic("stock");
        // before the upgrade: both products' stock set on the sale topic
        send(sale, StockSet.key(upgraded), new StockSet(upgraded, 50, 0));
        send(sale, StockSet.key(legacy), new StockSet(legacy, 30, 0));
        // after it: the upgraded product's stock set again, on the stock topic, then 3 units of it booked
        send(stock, StockSet.key(upgraded), new StockSet(upgraded, 20, 0));
        send(this.run.topic("bookings"), Long.toString(upgraded), Map.of("bookingId", upgraded + "-b1",
                "productId", upgraded, "userId", "booker", "quantity", 3, "bookedAt", 1L));
        // a queue's settings written to the stock topic, as a stolen booking credential could
        send(stock, QueueConfigured.key(planted), new QueueConfigured(planted, new QueueSettings(10, 10, 60, true,
                null, null, null, null, null, null, null, "https://stranger.example/hook", "secret")));

        QueueKeys keys = this.run.keyspace().product(upgraded);
        QueueKeys legacyKeys = this.run.keyspace().product(legacy);
        redis.delete(keys.all());
        redis.delete(legacyKeys.all());
        redis.delete(this.run.keyspace().lineEpoch());

        await().atMost(RESTORED).until(() -> redis.hasKey(keys.stock()) && redis.hasKey(legacyKeys.stock()));
        assertThat(redis.opsForValue().get(keys.stock())).as("the stock topic's setting, minus the booking")
            .isEqualTo("17");
        assertThat(redis.opsForHash().get(keys.stats(), "stockSetting")).isEqualTo("20:0");
        assertThat(redis.opsForSet().isMember(keys.gone(), "booker")).isTrue();
        assertThat(redis.opsForValue().get(legacyKeys.stock())).as("the sale topic's, from before").isEqualTo("30");
        assertThat(this.worker.getBean(QueueStore.class).findSettings(planted)).as("settings from the stock topic")
            .isEmpty();
    }

    private void send(String topic, String key, Object value) throws Exception {
        this.run.send(topic, key, value);
    }
}
