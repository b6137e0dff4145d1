package io.queuegate.ingest.warmup;

import java.util.Map;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.support.serializer.JacksonJsonSerializer;

/**
 * The scratch copy's Kafka: its enters are serialized as the real ones are, then acknowledged at once by Kafka's own
 * {@link MockProducer}, so the warm-up publishes no record to any broker.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("queuegate.ingest.warm-up.scratch")
class DryKafka {

    /** Typed as Spring Boot's own factory is, so that its KafkaTemplate takes this one. */
    @Bean
    ProducerFactory<Object, Object> dryProducerFactory(KafkaProperties kafka) {
        Map<String, Object> configuration = kafka.buildProducerProperties();
        JacksonJsonSerializer<Object> values = new JacksonJsonSerializer<>();
        values.configure(configuration, false);
        Serializer<Object> keys = (topic, key) -> new StringSerializer().serialize(topic, (String) key);
        return new ProducerFactory<>() {

            @Override
            public Producer<Object, Object> createProducer() {
                return new MockProducer<>(true, null, keys, values);
            }

            /** What the real factory's configuration says (the observed template names its cluster from it). */
            @Override
            public Map<String, Object> getConfigurationProperties() {
                return configuration;
            }
        };
    }
}
