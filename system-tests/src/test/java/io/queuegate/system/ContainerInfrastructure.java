package io.queuegate.system;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka broker (KRaft) and a Redis in containers, started by Testcontainers, with the images
 * {@code docker-compose.yml} runs. The services create their topics themselves, as in production.
 */
final class ContainerInfrastructure implements TestInfrastructure {

    private static final DockerImageName KAFKA = DockerImageName.parse("apache/kafka:4.1.0");

    private static final DockerImageName REDIS = DockerImageName.parse("redis:7-alpine");

    private final KafkaContainer kafka;

    private final GenericContainer<?> redis;

    private ContainerInfrastructure(KafkaContainer kafka, GenericContainer<?> redis) {
        this.kafka = kafka;
        this.redis = redis;
    }

    static ContainerInfrastructure start() {
        KafkaContainer kafka = new KafkaContainer(KAFKA);
        GenericContainer<?> redis = new GenericContainer<>(REDIS).withExposedPorts(6379);
        kafka.start();
        redis.start();
        return new ContainerInfrastructure(kafka, redis);
    }

    @Override
    public String kafkaBootstrapServers() {
        return this.kafka.getBootstrapServers();
    }

    @Override
    public String redisHost() {
        return this.redis.getHost();
    }

    @Override
    public int redisPort() {
        return this.redis.getMappedPort(6379);
    }

    @Override
    public String description() {
        return "Testcontainers " + KAFKA + " at " + kafkaBootstrapServers() + ", " + REDIS + " at " + redisHost()
                + ":" + redisPort();
    }

    @Override
    public void close() {
        this.redis.stop();
        this.kafka.stop();
    }
}
