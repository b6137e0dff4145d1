package io.queuegate.ingest.warmup;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.ScanOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A starting service drives enters and polls through a scratch copy of itself before it says it is ready, and
 * leaves nothing of it behind: no key in Redis, no topic, no record in the entries topic, nothing in its own metrics.
 */
class WarmUpTests extends IngestHttpTestSupport {

    @Test
    void aStartingServiceRunsTheBurstsCodeThroughAScratchCopyAndLeavesNoTrace() {
        long recordsBefore = recordsInTheEntriesTopic();

        try (ConfigurableApplicationContext service = startAnother(Duration.ofSeconds(2),
                "--spring.kafka.bootstrap-servers=" + this.brokers)) {
            WarmUp.Outcome outcome = service.getBean(WarmUp.class).outcome();
            assertThat(outcome).isNotNull();
            assertThat(outcome.accepted()).as("enters the scratch copy accepted").isPositive();
            assertThat(outcome.answered()).as("polls it answered").isPositive();

            assertThat(warmUpKeys()).as("Redis keys of the scratch copy left behind").isEmpty();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(warmUpTopics())
                .as("topics of the scratch copy left behind").isEmpty());
            assertThat(recordsInTheEntriesTopic()).as("records in the entries topic").isEqualTo(recordsBefore);
            MeterRegistry metrics = service.getBean(MeterRegistry.class);
            assertThat(metrics.find("queuegate.enters").counters())
                .allSatisfy((counter) -> assertThat(counter.count()).isZero());
            assertThat(get(portOf(service), "/readyz").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aServiceWhoseRedisIsNotThereYetStartsWithoutTheWarmUp() {
        try (ConfigurableApplicationContext service = startAnother(Duration.ofSeconds(2),
                "--spring.kafka.bootstrap-servers=" + this.brokers, "--spring.data.redis.port=1")) {
            assertThat(service.isRunning()).isTrue();
            assertThat(service.getBean(WarmUp.class).outcome()).isNull();
            assertThat(get(portOf(service), "/livez").statusCode()).isEqualTo(200);
        }
    }

    private Set<String> warmUpKeys() {
        try (var keys = this.redis.scan(ScanOptions.scanOptions().match("*warm-up-*").count(1000).build())) {
            return keys.stream().collect(Collectors.toSet());
        }
    }

    private Set<String> warmUpTopics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers))) {
            return admin.listTopics().names().get().stream()
                .filter((topic) -> topic.contains("warm-up-"))
                .collect(Collectors.toSet());
        }
    }

    private long recordsInTheEntriesTopic() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            Set<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                .map((info) -> new TopicPartition(TOPIC, info.partition()))
                .collect(Collectors.toSet());
            return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
