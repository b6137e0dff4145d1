package io.queuegate.system;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * spring-kafka-test's KRaft broker in this JVM, and the Redis already running on 127.0.0.1:6379, or the Redis
 * Cluster that {@code SPRING_DATA_REDIS_CLUSTER_NODES} names (the services read that variable themselves, and a
 * cluster's nodes outrank a single host).
 */
final class EmbeddedInfrastructure implements TestInfrastructure {

    private final EmbeddedKafkaKraftBroker broker;

    private EmbeddedInfrastructure(EmbeddedKafkaKraftBroker broker) {
        this.broker = broker;
    }

    static EmbeddedInfrastructure start(String... topics) {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 12, topics);
        broker.afterPropertiesSet();
        return new EmbeddedInfrastructure(broker);
    }

    @Override
    public String kafkaBootstrapServers() {
        return this.broker.getBrokersAsString();
    }

    @Override
    public String redisHost() {
        return "127.0.0.1";
    }

    @Override
    public int redisPort() {
        return 6379;
    }

    @Override
    public String description() {
        String cluster = System.getenv("SPRING_DATA_REDIS_CLUSTER_NODES");
        return "embedded KRaft broker at " + kafkaBootstrapServers() + ", "
                + (cluster == null || cluster.isBlank() ? "Redis on 127.0.0.1:6379" : "Redis Cluster at " + cluster);
    }

    @Override
    public void close() {
        this.broker.destroy();
    }
}
