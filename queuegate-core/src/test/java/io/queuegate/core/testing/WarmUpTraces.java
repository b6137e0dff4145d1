package io.queuegate.core.testing;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/** What a service's warm-up could leave behind, for the tests that it leaves nothing. */
public final class WarmUpTraces {

    private WarmUpTraces() {
    }

    /** Keys of any scratch copy, under any prefix. */
    public static Set<String> keys(StringRedisTemplate redis) {
        try (var keys = redis.scan(ScanOptions.scanOptions().match("*warm-up-*").count(1000).build())) {
            return keys.stream().collect(Collectors.toSet());
        }
    }

    /** Topics of any scratch copy. */
    public static Set<String> topics(String brokers) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers))) {
            return admin.listTopics().names().get().stream()
                .filter((topic) -> topic.contains("warm-up-"))
                .collect(Collectors.toSet());
        }
    }

    /** Records ever written to {@code topic}: the sum of its partitions' end offsets. */
    public static long records(String brokers, String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            Set<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map((info) -> new TopicPartition(topic, info.partition()))
                .collect(Collectors.toSet());
            return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
