package io.queuegate.ingest;

import io.queuegate.web.CrossOriginPolicy;
import io.queuegate.web.WebProperties;
import io.queuegate.web.egress.EgressConfiguration;
import io.queuegate.web.reactive.ReactiveApiWebConfiguration;
import io.queuegate.web.reactive.ReactiveCrossOriginAccess;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.TopicBuilder;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebProperties.class)
@Import({ ReactiveApiWebConfiguration.class, EgressConfiguration.class })
class IngestConfiguration {

    @Bean
    NewTopic entriesTopic(IngestProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.retention().toMillis()))
            .build();
    }

    @Bean
    NewTopic leavesTopic(IngestProperties properties) {
        return TopicBuilder.name(properties.leavesTopic()).partitions(properties.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.retention().toMillis()))
            .build();
    }

    /** A shop's own page may put the line into itself with queuegate.js when its origin is allowed. */
    @Bean
    ReactiveCrossOriginAccess crossOriginAccess(WebProperties web) {
        return new ReactiveCrossOriginAccess(CrossOriginPolicy.of(web, "/api/v1/queues/**", "GET", "POST", "DELETE"));
    }

    /** Enters and polls skip the per-request HTTP timer and span unless asked for (see BurstPathObservations). */
    @Bean
    @ConditionalOnBooleanProperty(name = "queuegate.ingest.observe-burst-paths", havingValue = false, matchIfMissing = true)
    BurstPathObservations burstPathObservations() {
        return new BurstPathObservations();
    }
}
