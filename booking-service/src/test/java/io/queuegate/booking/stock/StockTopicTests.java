package io.queuegate.booking.stock;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.queuegate.booking.BookingHttpTestSupport;
import io.queuegate.core.event.StockSet;
import io.queuegate.core.event.Topics;
import io.queuegate.core.testing.TopicLog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stock setting is made durable on the stock topic, the booking service's own, and never on the sale topic, whose
 * queue settings its Kafka user may not write on a broker with ACLs: a restore takes the stock back from there.
 */
class StockTopicTests extends BookingHttpTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aStockSettingIsPublishedToTheStockTopicNotTheSaleTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers))) {
            // the sale topic exists, as the admission worker makes it: a stock setting sent there would be kept
            if (!admin.listTopics().names().get(WAIT.toSeconds(), TimeUnit.SECONDS).contains(Topics.SALE)) {
                admin.createTopics(List.of(new NewTopic(Topics.SALE, 1, (short) 1)))
                    .all()
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            long product = productWithStock(8);
            setStock(product, 5);

            List<ConsumerRecord<String, String>> stock = TopicLog.records(this.brokers, Topics.STOCK,
                    StockSet.key(product));
            assertThat(stock).map((record) -> JsonMapper.shared().readValue(record.value(), StockSet.class))
                .containsExactly(new StockSet(product, 8, 0), new StockSet(product, 5, 0));
            assertThat(TopicLog.records(this.brokers, Topics.SALE, StockSet.key(product))).isEmpty();

            // made by the service as the sale topic was: one partition, compacted (only the last setting counts)
            TopicDescription description = admin.describeTopics(List.of(Topics.STOCK))
                .allTopicNames()
                .get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .get(Topics.STOCK);
            assertThat(description.partitions()).hasSize(1);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, Topics.STOCK);
            Config config = admin.describeConfigs(List.of(resource)).all().get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .get(resource);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                .isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        }
    }
}
