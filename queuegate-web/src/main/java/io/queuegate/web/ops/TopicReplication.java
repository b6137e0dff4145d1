package io.queuegate.web.ops;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Replicates the topics a service creates as the cluster allows: 3 replicas and {@code min.insync.replicas} 2 on three
 * brokers or more, 1 and 1 on one broker (the demo stack), unless {@code queuegate.kafka.*} says otherwise
 * ({@link KafkaTopicProperties}).
 *
 * <p>Every service declares its topics as {@link NewTopic} beans without a replication factor, and Spring's
 * {@link KafkaAdmin} creates them at start-up. This post-processor gives each such topic the replication decided here
 * before the admin sees it, so no service decides for itself and a topic declared later cannot be forgotten. A fixed
 * factor of 3 would make topic creation fail on the one-broker stack of {@code ./run.sh} and the tests; the broker's
 * own {@code default.replication.factor} alone would leave {@code min.insync.replicas} at the broker's default of 1,
 * where an acknowledged enter may sit on one broker only and be lost with it.
 *
 * <p>The broker count is asked once, on the first topic, with a short timeout. A cluster that does not answer gets
 * the topics as declared (plus whatever the overrides set): the admin cannot create them then either, and a topic
 * Kafka creates later on first use takes the brokers' defaults, which {@code kafka/cluster.properties.template} sets
 * to the same 3 and 2.
 */
final class TopicReplication implements BeanPostProcessor {

    private static final Logger log = LoggerFactory.getLogger(TopicReplication.class);

    /** Replicas on a cluster of at least this many brokers: one broker may be lost and another fall behind. */
    static final int CLUSTER_REPLICAS = 3;

    private static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(5);

    private final ObjectProvider<KafkaAdmin> admin;

    private final ObjectProvider<KafkaTopicProperties> properties;

    /** Decided on the first topic, then kept: every topic of one start is replicated alike. */
    private Replication decided;

    TopicReplication(ObjectProvider<KafkaAdmin> admin, ObjectProvider<KafkaTopicProperties> properties) {
        this.admin = admin;
        this.properties = properties;
    }

    /** What the topics get; a null field is left to the broker's default. */
    record Replication(Short replicationFactor, Integer minInsyncReplicas) {
    }

    /**
     * The replication of a cluster of {@code brokers} brokers (null: unknown, the cluster did not answer) under the
     * overrides.
     *
     * @throws IllegalStateException when {@code min.insync.replicas} would exceed the replicas, so that every write
     *         would be refused
     */
    static Replication decide(Integer brokers, KafkaTopicProperties overrides) {
        Integer replicas = overrides.replicationFactor();
        if (replicas == null && brokers != null) {
            replicas = Math.clamp(brokers, 1, CLUSTER_REPLICAS);
        }
        Integer minInsync = overrides.minInsyncReplicas();
        if (minInsync == null && replicas != null) {
            // one replica may fall behind or be lost without refusing writes; two copies are what acks=all promises
            minInsync = Math.clamp(replicas - 1, 1, 2);
        }
        if (replicas != null && minInsync != null && minInsync > replicas) {
            throw new IllegalStateException("queuegate.kafka.min-insync-replicas (" + minInsync
                    + ") is above the replication factor (" + replicas + "): every write would be refused");
        }
        return new Replication(replicas == null ? null : replicas.shortValue(), minInsync);
    }

    /**
     * The topic with the replication, where it did not choose its own (a replication factor, an assignment of
     * replicas or a {@code min.insync.replicas} of its own stay as declared).
     */
    static NewTopic replicated(NewTopic topic, Replication replication) {
        Map<String, String> configs = new HashMap<>(Optional.ofNullable(topic.configs()).orElse(Map.of()));
        if (replication.minInsyncReplicas() != null) {
            configs.putIfAbsent(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, replication.minInsyncReplicas().toString());
        }
        NewTopic result = topic;
        boolean ownFactor = topic.replicationFactor() > 0 || topic.replicasAssignments() != null;
        if (!ownFactor && replication.replicationFactor() != null) {
            Optional<Integer> partitions = topic.numPartitions() > 0 ? Optional.of(topic.numPartitions())
                    : Optional.empty();
            result = new NewTopic(topic.name(), partitions, Optional.of(replication.replicationFactor()));
        }
        return result.configs(configs);
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof NewTopic topic) {
            return replicated(topic, replication());
        }
        return bean;
    }

    private synchronized Replication replication() {
        if (this.decided == null) {
            KafkaTopicProperties overrides = this.properties.getObject();
            boolean ask = overrides.replicationFactor() == null || overrides.minInsyncReplicas() == null;
            Integer brokers = ask ? brokers() : null;
            this.decided = decide(brokers, overrides);
            log.info("topics created here get replication factor {} and min.insync.replicas {} ({})",
                    orBrokerDefault(this.decided.replicationFactor()),
                    orBrokerDefault(this.decided.minInsyncReplicas()),
                    !ask ? "as set" : brokers == null ? "the cluster did not answer" : brokers + " brokers");
        }
        return this.decided;
    }

    private static int brokers(AdminClient client, boolean fencedToo) throws Exception {
        return client
            .describeCluster(new DescribeClusterOptions().includeFencedBrokers(fencedToo)
                .timeoutMs((int) DESCRIBE_TIMEOUT.toMillis()))
            .nodes()
            .get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .size();
    }

    private static String orBrokerDefault(Object value) {
        return value == null ? "the broker's default" : value.toString();
    }

    /**
     * The brokers registered with the cluster, fenced ones included, or null when it did not say within the timeout:
     * a service started for the first time while one of three brokers is down asks for three replicas still, and
     * creating its topics fails until the broker is back rather than leaving them with two replicas for good.
     */
    private Integer brokers() {
        Map<String, Object> config = new HashMap<>(this.admin.getObject().getConfigurationProperties());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) DESCRIBE_TIMEOUT.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) DESCRIBE_TIMEOUT.toMillis());
        try (AdminClient client = AdminClient.create(config)) {
            try {
                return brokers(client, true);
            }
            catch (ExecutionException ex) {
                if (!(ex.getCause() instanceof UnsupportedVersionException)) {
                    throw ex;
                }
                // a broker older than Kafka 4.0 tells only the brokers that are up
                return brokers(client, false);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
        catch (Exception ex) {
            log.warn("Kafka did not say how many brokers it has ({}); topics are created with the brokers' "
                    + "replication defaults", ex.toString());
            return null;
        }
    }
}
