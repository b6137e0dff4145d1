package io.queuegate.web.ops;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Names the Kafka cluster in the services' trace spans by its bootstrap servers. Observed sends and listeners tag
 * their spans with the cluster id, and spring-kafka would ask the broker for it on the first send, and again on
 * every send while the broker cannot be reached, each time waiting up to the admin's operation timeout (30 s)
 * under a lock that every send shares: an enter or a booking must answer 503 within its publish timeout instead.
 */
final class KafkaClusterName implements BeanPostProcessor {

    private final String name;

    KafkaClusterName(String name) {
        this.name = name;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof KafkaAdmin admin) {
            admin.setClusterId(this.name);
        }
        return bean;
    }
}
