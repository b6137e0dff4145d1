package io.queuegate.admission.webhook;

import java.util.Map;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.web.egress.EgressClient;
import io.queuegate.web.egress.EgressProperties;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties.AckMode;

/** The webhook's topics, and the container its sender runs in: one record at a time, retried, then set aside. */
@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {

    static final String LISTENER_FACTORY = "webhookListenerFactory";

    /**
     * Kept as long as the entries: an admission that waits past it for a receiver that does not answer is lost. As
     * many partitions, so one product's admissions stay in order.
     */
    @Bean
    NewTopic admissionsTopic(WebhookProperties webhook, AdmissionProperties admission) {
        return TopicBuilder.name(webhook.topic()).partitions(admission.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(admission.retention().toMillis()))
            .build();
    }

    @Bean
    NewTopic admissionsDeadLetterTopic(WebhookProperties webhook, AdmissionProperties admission) {
        return TopicBuilder.name(webhook.deadLetterTopic()).partitions(admission.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(admission.retention().toMillis()))
            .build();
    }

    /**
     * The client that posts to the receivers, each POST within the timeout. A redirect is not followed: the receiver
     * is the URL the operator set, not one it points to; and only public addresses over https are reached unless
     * {@code queuegate.egress.*} says otherwise. Closed with the context, once the sender's listener has stopped.
     */
    @Bean
    EgressClient webhookHttpClient(EgressProperties egress, WebhookProperties properties) {
        return new EgressClient(egress, properties.timeout(), "webhook");
    }

    /**
     * Records one at a time, each committed once its POST succeeded or it was set aside. A poll takes few records:
     * each may hold the consumer for the timeout and the retries, and a poll's records must be done within
     * {@code max.poll.interval.ms} (5 minutes). The application's consumer settings are for the line's bursts.
     */
    @Bean(LISTENER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, byte[]> webhookListenerFactory(KafkaProperties kafka,
            WebhookDeadLetters deadLetters) {
        Map<String, Object> consumer = kafka.buildConsumerProperties();
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
        consumer.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
        factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(consumer, new StringDeserializer(),
                new ByteArrayDeserializer()));
        factory.setBatchListener(false);
        factory.getContainerProperties().setAckMode(AckMode.RECORD);
        factory.setCommonErrorHandler(deadLetters.errorHandler());
        factory.setAutoStartup(kafka.getListener().isAutoStartup());
        return factory;
    }
}
