package io.queuegate.web.ops;

import java.util.Map;

import io.queuegate.web.ops.TopicReplication.Replication;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.config.TopicBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The decision alone: how many replicas and in-sync replicas a cluster of so many brokers gets. */
class TopicReplicationTests {

    private static final KafkaTopicProperties UNSET = new KafkaTopicProperties(null, null);

    @Test
    void threeBrokersOrMoreGetThreeReplicasOfWhichTwoMustHoldAWrite() {
        assertThat(TopicReplication.decide(3, UNSET)).isEqualTo(new Replication((short) 3, 2));
        assertThat(TopicReplication.decide(7, UNSET)).isEqualTo(new Replication((short) 3, 2));
    }

    @Test
    void oneBrokerGetsOneAndOneAsBefore() {
        assertThat(TopicReplication.decide(1, UNSET)).isEqualTo(new Replication((short) 1, 1));
    }

    @Test
    void twoBrokersKeepTakingWritesWhenOneIsLost() {
        assertThat(TopicReplication.decide(2, UNSET)).isEqualTo(new Replication((short) 2, 1));
    }

    @Test
    void theSettingsWinOverTheBrokerCount() {
        assertThat(TopicReplication.decide(3, new KafkaTopicProperties(2, null)))
            .isEqualTo(new Replication((short) 2, 1));
        assertThat(TopicReplication.decide(5, new KafkaTopicProperties(5, 3)))
            .isEqualTo(new Replication((short) 5, 3));
        assertThat(TopicReplication.decide(3, new KafkaTopicProperties(null, 1)))
            .isEqualTo(new Replication((short) 3, 1));
    }

    @Test
    void anUnknownClusterLeavesWhatIsNotSetToTheBrokers() {
        assertThat(TopicReplication.decide(null, UNSET)).isEqualTo(new Replication(null, null));
        assertThat(TopicReplication.decide(null, new KafkaTopicProperties(3, null)))
            .isEqualTo(new Replication((short) 3, 2));
    }

    @Test
    void moreInSyncReplicasThanReplicasIsRefusedAtStart() {
        assertThatIllegalStateException()
            .isThrownBy(() -> TopicReplication.decide(1, new KafkaTopicProperties(null, 2)))
            .withMessageContaining("min-insync-replicas (2)");
        assertThatIllegalStateException().isThrownBy(() -> TopicReplication.decide(3, new KafkaTopicProperties(2, 3)));
    }

    @Test
    void aTopicGetsTheReplicationAndKeepsItsPartitionsAndConfigs() {
        NewTopic declared = TopicBuilder.name("t").partitions(4).compact().build();

        NewTopic topic = TopicReplication.replicated(declared, new Replication((short) 3, 2));

        assertThat(topic.name()).isEqualTo("t");
        assertThat(topic.numPartitions()).isEqualTo(4);
        assertThat(topic.replicationFactor()).isEqualTo((short) 3);
        assertThat(topic.configs()).containsEntry(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2")
            .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    }

    @Test
    void aTopicThatChoseItsOwnReplicationKeepsIt() {
        NewTopic declared = TopicBuilder.name("t").partitions(1).replicas(1)
            .config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1").build();

        NewTopic topic = TopicReplication.replicated(declared, new Replication((short) 3, 2));

        assertThat(topic.replicationFactor()).isEqualTo((short) 1);
        assertThat(topic.configs()).isEqualTo(Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1"));
    }

    @Test
    void anUnknownReplicationLeavesTheTopicAsDeclared() {
        NewTopic declared = TopicBuilder.name("t").partitions(2).build();

        NewTopic topic = TopicReplication.replicated(declared, new Replication(null, null));

        assertThat(topic.replicationFactor()).isEqualTo((short) -1);
        assertThat(topic.configs()).doesNotContainKey(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
    }
}
