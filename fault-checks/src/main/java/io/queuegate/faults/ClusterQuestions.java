package io.queuegate.faults;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * {@code admin BOOTSTRAP}: answers questions about a cluster with Kafka's own {@link Admin} client, one question a
 * line on standard input, one JSON line of answer each on standard output, until standard input ends:
 * <ul>
 * <li>{@code partition TOPIC INDEX}: {@code {"leader": 1, "replicas": [1, 2, 3], "isr": [1, 2]}} ({@code leader}
 * null while the partition has none);</li>
 * <li>{@code config TOPIC KEY}: {@code {"value": "2", "source": "DYNAMIC_TOPIC_CONFIG"}}, the topic's setting and
 * where it comes from ({@link ConfigEntry.ConfigSource}).</li>
 * </ul>
 * A question the cluster does not answer within {@link #ANSWER_WITHIN_MS} is answered {@code null} (the reason on
 * standard error), so that the runner can ask again while brokers die and come back. The runner starts this once,
 * before the scenario's clock runs, and asks as often as it likes: no JVM starts at the moment a scenario times.
 */
final class ClusterQuestions {

    /** As long as the runner used to wait for a broker's answer on its own socket. */
    static final int ANSWER_WITHIN_MS = 3_000;

    private final Admin admin;

    ClusterQuestions(Admin admin) {
        this.admin = admin;
    }

    static void run(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: admin BOOTSTRAP");
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (Admin admin = Admin.create(properties(args[0]));
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            ClusterQuestions questions = new ClusterQuestions(admin);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    out.println(questions.answer(line.strip()));
                }
            }
        }
    }

    static Map<String, Object> properties(String bootstrap) {
        return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ANSWER_WITHIN_MS,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ANSWER_WITHIN_MS,
                AdminClientConfig.CLIENT_ID_CONFIG, "queuegate-fault-checks-admin");
    }

    /** The JSON answer to one question, or {@code null} when the cluster did not answer it. */
    String answer(String question) {
        String[] words = question.split(" ");
        try {
            return switch (words[0]) {
                case "partition" -> partition(words[1], Integer.parseInt(words[2]));
                case "config" -> config(words[1], words[2]);
                default -> throw new IllegalArgumentException("no such question: " + question);
            };
        }
        catch (Exception ex) {
            System.err.println(question + ": " + ex);
            return "null";
        }
    }

    private String partition(String topic, int index) throws Exception {
        TopicDescription description = this.admin.describeTopics(List.of(topic))
            .allTopicNames()
            .get(ANSWER_WITHIN_MS, TimeUnit.MILLISECONDS)
            .get(topic);
        TopicPartitionInfo partition = description.partitions().stream()
            .filter((info) -> info.partition() == index)
            .findFirst()
            .orElse(null);
        if (partition == null) {
            return "null";
        }
        Node leader = partition.leader();
        return "{\"leader\": " + (leader == null || leader.isEmpty() ? "null" : leader.id()) + ", \"replicas\": "
                + ids(partition.replicas()) + ", \"isr\": " + ids(partition.isr()) + "}";
    }

    private String config(String topic, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = this.admin.describeConfigs(List.of(resource))
            .all()
            .get(ANSWER_WITHIN_MS, TimeUnit.MILLISECONDS)
            .get(resource);
        ConfigEntry entry = config.get(key);
        if (entry == null) {
            return "null";
        }
        // setting names and values are plain (digits, letters, dots): no escaping needed
        return "{\"value\": \"" + entry.value() + "\", \"source\": \"" + entry.source() + "\"}";
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map((node) -> String.valueOf(node.id())).collect(Collectors.joining(", ", "[", "]"));
    }
}
