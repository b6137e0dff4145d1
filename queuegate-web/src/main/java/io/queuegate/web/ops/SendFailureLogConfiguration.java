package io.queuegate.web.ops;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.support.ProducerListener;

/**
 * The producer listener of Spring Boot's {@code KafkaTemplate}: {@link SendFailureLog}, which logs a failed send
 * without the record. Declared, it replaces Boot's own ({@code kafkaProducerListener}, a Spring Kafka
 * {@code LoggingProducerListener} that logs the record's key and value).
 */
@Configuration(proxyBeanMethods = false)
public class SendFailureLogConfiguration {

    @Bean
    ProducerListener<Object, Object> sendFailureLog() {
        return new SendFailureLog<>();
    }
}
