package io.queuegate.booking;

import io.queuegate.web.AdminAccess;
import io.queuegate.web.AdminProperties;
import io.queuegate.web.ApiWebConfiguration;
import io.queuegate.web.CrossOriginAccess;
import io.queuegate.web.CrossOriginPolicy;
import io.queuegate.web.RequestBodyLimitFilter;
import io.queuegate.web.WebProperties;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ AdminProperties.class, WebProperties.class })
@Import(ApiWebConfiguration.class)
class BookingConfiguration {

    @Bean
    AdminAccess adminAccess(AdminProperties admin, Environment environment) {
        return new AdminAccess(admin, environment, "/api/v1/products/**");
    }

    /** The waiting page is served by ingest-service, another origin, and books here from the browser. */
    @Bean
    CrossOriginAccess crossOriginAccess(WebProperties web) {
        return new CrossOriginAccess(CrossOriginPolicy.of(web, "/api/v1/bookings/**", "GET", "POST"));
    }

    @Bean
    NewTopic bookingsTopic(BookingProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions())
            .config(TopicConfig.RETENTION_MS_CONFIG, Long.toString(properties.retention().toMillis()))
            .build();
    }

    /** Compacted: a rebuild needs each product's last stock setting, not its history. */
    @Bean
    NewTopic stockTopic(BookingProperties properties) {
        return TopicBuilder.name(properties.stockTopic()).partitions(1).compact().build();
    }

    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter(BookingProperties properties) {
        return new RequestBodyLimitFilter(properties.maxBodyBytes());
    }
}
