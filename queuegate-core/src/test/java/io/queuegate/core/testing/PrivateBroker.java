package io.queuegate.core.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A broker of one test class's own. Starting an embedded broker sets the system properties that the other tests'
 * cached contexts read their broker's address from: they are put back, or those contexts would send to this one
 * after it is gone.
 */
public final class PrivateBroker {

    private PrivateBroker() {
    }

    /** Starts a one-node broker with these topics, each of {@code partitions} partitions. */
    public static EmbeddedKafkaKraftBroker start(int partitions, String... topics) {
        Map<String, String> others = new HashMap<>();
        for (String property : List.of(EmbeddedKafkaBroker.SPRING_EMBEDDED_KAFKA_BROKERS,
                "spring.kafka.bootstrap-servers")) {
            others.put(property, System.getProperty(property));
        }
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, partitions, topics);
        broker.afterPropertiesSet();
        others.forEach((property, value) -> {
            if (value == null) {
                System.clearProperty(property);
            }
            else {
                System.setProperty(property, value);
            }
        });
        return broker;
    }
}
