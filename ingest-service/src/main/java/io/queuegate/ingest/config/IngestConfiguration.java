package io.queuegate.ingest.config;

import io.queuegate.core.web.ApiWebConfiguration;
import io.queuegate.core.web.RequestBodyLimitFilter;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.TopicBuilder;

@Configuration(proxyBeanMethods = false)
@Import(ApiWebConfiguration.class)
class IngestConfiguration {

    @Bean
    NewTopic entriesTopic(IngestProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions()).build();
    }

    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter(IngestProperties properties) {
        return new RequestBodyLimitFilter(properties.maxBodyBytes());
    }
}
