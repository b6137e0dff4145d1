package io.queuegate.faults;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@code log BOOTSTRAP TOPIC [SECONDS]}: prints every record value of the topic, one per line, from the start of each
 * partition to the end it had when the read began, then exits 0; exits 3 when the end is not reached within SECONDS
 * (default 60). The runner's checks count what the log holds, so the read ends where the log ends, not after some
 * quiet time: a consumer that waits for silence, as the console consumer does, reads nothing when its first fetch
 * comes late on a loaded machine, and a check would take that for an empty log. Partitions are assigned, not
 * subscribed, so no group coordinator is asked, whichever broker is down.
 */
final class TopicLog {

    private TopicLog() {
    }

    static void run(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: log BOOTSTRAP TOPIC [SECONDS]");
        }
        Duration within = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 60);
        try {
            PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
            read(args[0], args[1], within).forEach(out::println);
            out.flush();
        }
        catch (TimeoutException ex) {
            System.err.println(ex.getMessage());
            System.exit(3);
        }
    }

    /** The values of the topic's records up to the end each partition had when the read began, partition by partition. */
    static List<String> read(String bootstrap, String topic, Duration within) throws TimeoutException {
        long deadline = System.nanoTime() + within.toNanos();
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties(bootstrap, within))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, within).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, within);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!reached(consumer, ends)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the end of " + topic + " " + ends + " was not reached within "
                            + within);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    long end = ends.get(new TopicPartition(record.topic(), record.partition()));
                    if (record.value() != null && record.offset() < end) {
                        values.add(record.value());
                    }
                }
            }
        }
        return values;
    }

    private static boolean reached(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
    }

    private static Properties properties(String bootstrap, Duration within) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) within.toMillis());
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);  // a topic never written reads empty
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "queuegate-fault-checks-log");
        return properties;
    }
}
