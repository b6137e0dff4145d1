package io.queuegate.ingest.config;

import io.queuegate.core.web.ApiProblemHandler;
import io.queuegate.core.web.RequestBodyLimitFilter;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.TopicBuilder;

@Configuration(proxyBeanMethods = false)
@Import(ApiProblemHandler.class)
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
