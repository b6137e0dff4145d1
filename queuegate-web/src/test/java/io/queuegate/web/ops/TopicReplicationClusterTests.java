package io.queuegate.web.ops;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topics a service declares, created by Spring's Kafka admin on a real three-broker KRaft cluster (in this JVM):
 * they come out with 3 replicas and {@code min.insync.replicas} 2 set on the topic itself, or as the settings say.
 *
 * <p>Kafka's own test kit (which spring-kafka-test's embedded broker wraps) with one controller: the embedded broker
 * makes every broker a controller as well, and three such in one JVM failed here on their quorum's first voter
 * update (Kafka 4.1.2), while the replication under test needs three brokers, not three controllers.
 */
class TopicReplicationClusterTests {

    private static KafkaClusterTestKit cluster;

    private static AdminClient admin;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
            .setNumBrokerNodes(3)
            .setNumControllerNodes(1)
            .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
            .build()).build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        admin = AdminClient.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        admin.close();
        cluster.close();
    }

    private ApplicationContextRunner service() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class))
            .withUserConfiguration(TopicReplicationConfiguration.class, Topics.class)
            .withPropertyValues("spring.kafka.bootstrap-servers=" + cluster.bootstrapServers());
    }

    @Test
    void onThreeBrokersTheTopicsGetThreeReplicasAndTwoInSync() {
        service().withPropertyValues("topics.prefix=three").run((context) -> {
            assertThat(context).hasNotFailed();
            for (String topic : List.of("three.entries", "three.sale")) {
                assertThat(replicas(topic)).as(topic).isEqualTo(3);
                assertThat(minInsyncReplicas(topic)).as(topic).isEqualTo("2");
            }
            // what the topic declared itself is kept
            assertThat(config("three.sale").get(TopicConfig.CLEANUP_POLICY_CONFIG).value())
                .isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        });
    }

    @Test
    void theSettingsOverrideTheBrokerCount() {
        service().withPropertyValues("topics.prefix=two", "queuegate.kafka.replication-factor=2",
                "queuegate.kafka.min-insync-replicas=2").run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(replicas("two.entries")).isEqualTo(2);
                    assertThat(minInsyncReplicas("two.entries")).isEqualTo("2");
                });
    }

    @Test
    void impossibleSettingsStopTheService() {
        service().withPropertyValues("topics.prefix=never", "queuegate.kafka.min-insync-replicas=4")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("min-insync-replicas (4) is above the replication factor (3)"));
    }

    private static int replicas(String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic);
        return description.partitions().getFirst().replicas().size();
    }

    /** The topic's own setting: a broker default would be found too, with another source. */
    private static String minInsyncReplicas(String topic) throws Exception {
        ConfigEntry entry = config(topic).get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        assertThat(entry.source()).as(topic).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        return entry.value();
    }

    private static Config config(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
    }

    /** Topics as the services declare theirs: a partition count, some a config of their own, no replication. */
    @Configuration(proxyBeanMethods = false)
    static class Topics {

        @Bean
        NewTopic entries(org.springframework.core.env.Environment environment) {
            return TopicBuilder.name(environment.getRequiredProperty("topics.prefix") + ".entries").partitions(2)
                .build();
        }

        @Bean
        NewTopic sale(org.springframework.core.env.Environment environment) {
            return TopicBuilder.name(environment.getRequiredProperty("topics.prefix") + ".sale").partitions(1)
                .compact()
                .build();
        }
    }
}
