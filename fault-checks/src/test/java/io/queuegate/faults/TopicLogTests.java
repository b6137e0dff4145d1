package io.queuegate.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.queuegate.core.testing.PrivateBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;

class TopicLogTests {

    private static EmbeddedKafkaKraftBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = PrivateBroker.start(3, "log-written", "log-empty");
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void everyRecordOfEveryPartitionIsReadAndTheReadEndsWhereTheLogEnds() throws Exception {
        List<String> sent = IntStream.range(0, 60).mapToObj(i -> "{\"n\":" + i + "}").toList();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < sent.size(); i++) {
                producer.send(new ProducerRecord<>("log-written", "key-" + (i % 7), sent.get(i))).get();
            }
        }

        List<String> read = TopicLog.read(broker.getBrokersAsString(), "log-written", Duration.ofSeconds(30));

        assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void aTopicNothingWasWrittenToReadsEmptyAtOnce() throws Exception {
        assertThat(TopicLog.read(broker.getBrokersAsString(), "log-empty", Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void aTopicThatDoesNotExistReadsEmptyAndIsNotCreated() throws Exception {
        assertThat(TopicLog.read(broker.getBrokersAsString(), "log-never", Duration.ofSeconds(30))).isEmpty();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.getBrokersAsString()))) {
            assertThat(admin.listTopics().names().get()).contains("log-written").doesNotContain("log-never");
        }
    }
}
