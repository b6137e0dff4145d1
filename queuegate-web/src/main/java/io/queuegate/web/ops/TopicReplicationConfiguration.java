package io.queuegate.web.ops;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/** The replication of every topic a service creates ({@link TopicReplication}), set by {@code queuegate.kafka.*}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KafkaTopicProperties.class)
public class TopicReplicationConfiguration {

    /**
     * Static, as a post-processor must be; the admin and the settings are looked up only when the first topic is
     * post-processed, so neither is created before the post-processors that should see it.
     */
    @Bean
    static TopicReplication topicReplication(ObjectProvider<KafkaAdmin> admin,
            ObjectProvider<KafkaTopicProperties> properties) {
        return new TopicReplication(admin, properties);
    }
}
