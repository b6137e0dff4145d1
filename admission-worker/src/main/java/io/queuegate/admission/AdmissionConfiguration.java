package io.queuegate.admission;

import io.queuegate.web.AdminAccess;
import io.queuegate.web.AdminProperties;
import io.queuegate.web.ApiWebConfiguration;
import io.queuegate.web.RequestBodyLimitFilter;
import io.queuegate.web.egress.EgressConfiguration;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdminProperties.class)
@Import({ ApiWebConfiguration.class, EgressConfiguration.class })
class AdmissionConfiguration {

    @Bean
    AdminAccess adminAccess(AdminProperties admin, Environment environment) {
        return new AdminAccess(admin, environment, "/api/v1/queues/**", "/api/v1/writer");
    }

    /**
     * The worker's port serves its admin API and nothing else, so {@code queuegate.admin.address} is where that port
     * listens: loopback keeps the API on the host even where the port is reachable from outside.
     */
    @Bean
    WebServerFactoryCustomizer<ConfigurableWebServerFactory> adminAddress(AdminProperties admin) {
        return (factory) -> {
            if (admin.address() != null) {
                factory.setAddress(admin.address());
            }
        };
    }

    /** The admin API's bodies are a few fields; nothing larger is read. */
    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter() {
        return new RequestBodyLimitFilter(4096);
    }

    @Bean
    NewTopic entriesTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.retention().toMillis()))
            .build();
    }

    /** As many partitions as the entries topic, so that setting aside a record never waits on a busy one. */
    @Bean
    NewTopic deadLetterTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.deadLetterTopic()).partitions(properties.partitions()).build();
    }

    @Bean
    NewTopic auditTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.auditTopic()).partitions(properties.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.retention().toMillis()))
            .build();
    }

    /** Compacted: a rebuild needs each product's last queue settings and holds, not their history. */
    @Bean
    NewTopic saleTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.saleTopic()).partitions(1).compact().build();
    }
}
