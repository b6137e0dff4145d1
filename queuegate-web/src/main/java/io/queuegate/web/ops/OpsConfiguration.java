package io.queuegate.web.ops;

import io.queuegate.web.openapi.ApiDescriptionConfiguration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * What operators of every service get: Kafka health, trace spans that never wait on Kafka, topics replicated as the
 * cluster allows ({@link TopicReplication}), failed sends logged without the record ({@link SendFailureLog}), the
 * OpenAPI description; and what every shop gets: the admission keys ({@link JwksController}).
 */
@Configuration(proxyBeanMethods = false)
@Import({ ApiDescriptionConfiguration.class, JwksController.class, TopicReplicationConfiguration.class,
        SendFailureLogConfiguration.class })
public class OpsConfiguration {

    @Bean
    static KafkaClusterName kafkaClusterName(
            @Value("${spring.kafka.bootstrap-servers:localhost:9092}") String bootstrapServers) {
        return new KafkaClusterName(bootstrapServers);
    }

    /** Registered as the {@code kafka} health contributor, beside Boot's {@code redis}. */
    @Bean
    KafkaHealthIndicator kafkaHealthIndicator(KafkaAdmin kafkaAdmin) {
        return new KafkaHealthIndicator(kafkaAdmin);
    }
}
