package io.queuegate.faults;

import java.util.List;
import java.util.Map;

import io.queuegate.core.testing.PrivateBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterQuestionsTests {

    private static EmbeddedKafkaKraftBroker broker;

    private static Admin admin;

    private static int brokerId;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = PrivateBroker.start(2, "questions-plain");
        admin = Admin.create(ClusterQuestions.properties(broker.getBrokersAsString()));
        admin.createTopics(List.of(new NewTopic("questions-set", 3, (short) 1)
            .configs(Map.of("min.insync.replicas", "1", "retention.ms", "123456")))).all().get();
        brokerId = admin.describeCluster().nodes().get().iterator().next().id();
    }

    @AfterAll
    static void stopBroker() {
        admin.close();
        broker.destroy();
    }

    @Test
    void aPartitionIsAnsweredWithItsLeaderReplicasAndInSyncReplicas() {
        String answer = new ClusterQuestions(admin).answer("partition questions-set 2");

        assertThat(answer).isEqualTo("{\"leader\": " + brokerId + ", \"replicas\": [" + brokerId + "], \"isr\": ["
                + brokerId + "]}");
    }

    @Test
    void aPartitionTheTopicDoesNotHaveIsNull() {
        assertThat(new ClusterQuestions(admin).answer("partition questions-plain 5")).isEqualTo("null");
    }

    @Test
    void aTopicsOwnSettingIsToldApartFromTheBrokersDefault() {
        ClusterQuestions questions = new ClusterQuestions(admin);

        assertThat(questions.answer("config questions-set retention.ms"))
            .isEqualTo("{\"value\": \"123456\", \"source\": \"DYNAMIC_TOPIC_CONFIG\"}");
        assertThat(questions.answer("config questions-plain retention.ms")).doesNotContain("DYNAMIC_TOPIC_CONFIG");
    }

    @Test
    void aQuestionAboutATopicThatDoesNotExistIsAnsweredNullAndTheNextIsStillAnswered() {
        ClusterQuestions questions = new ClusterQuestions(admin);

        assertThat(questions.answer("partition questions-never 0")).isEqualTo("null");
        assertThat(questions.answer("partition questions-plain 0")).startsWith("{\"leader\": " + brokerId);
    }
}
