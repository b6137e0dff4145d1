package io.queuegate.system;

import java.util.Locale;

import org.testcontainers.DockerClientFactory;

/**
 * Where the system tests' Kafka and Redis come from, chosen once per run by {@code QUEUEGATE_TEST_INFRA}:
 * <ul>
 * <li>{@code auto} (the default): Testcontainers when a Docker engine answers, the embedded ones otherwise;
 * <li>{@code containers}: a Kafka and a Redis container (Testcontainers), failing when there is no Docker engine;
 * <li>{@code embedded}: spring-kafka-test's embedded KRaft broker in this JVM and the Redis on 127.0.0.1:6379.
 * </ul>
 * Both are real brokers and real Redis; the choice is printed at the start of the run.
 */
interface TestInfrastructure extends AutoCloseable {

    String SWITCH = "QUEUEGATE_TEST_INFRA";

    String kafkaBootstrapServers();

    String redisHost();

    int redisPort();

    /** What runs, in a line, for the start of the run's output. */
    String description();

    @Override
    void close();

    static TestInfrastructure start(String... topics) {
        String wanted = System.getenv().getOrDefault(SWITCH, "auto").trim().toLowerCase(Locale.ROOT);
        TestInfrastructure infrastructure = switch (wanted) {
            case "embedded" -> EmbeddedInfrastructure.start(topics);
            case "containers" -> ContainerInfrastructure.start();
            case "auto", "" -> dockerAnswers() ? ContainerInfrastructure.start() : EmbeddedInfrastructure.start(topics);
            default -> throw new IllegalStateException(SWITCH + "=" + wanted
                    + " is not one of auto, containers, embedded");
        };
        System.out.printf("[system tests] Kafka and Redis: %s (%s=%s)%n", infrastructure.description(), SWITCH,
                wanted.isEmpty() ? "auto" : wanted);
        return infrastructure;
    }

    private static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        }
        catch (RuntimeException ex) {
            return false;
        }
    }
}
