package io.queuegate.booking.config;

import io.queuegate.core.QueueCoreConfiguration;
import io.queuegate.core.web.AdminProperties;
import io.queuegate.core.web.AdminTokenInterceptor;
import io.queuegate.core.web.ApiWebConfiguration;
import io.queuegate.core.web.RequestBodyLimitFilter;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdminProperties.class)
@Import(ApiWebConfiguration.class)
class BookingConfiguration implements WebMvcConfigurer {

    private final AdminTokenInterceptor adminTokens;

    BookingConfiguration(AdminProperties admin, Environment environment) {
        QueueCoreConfiguration.requireRealSecret(admin.token(), AdminProperties.DEV_TOKEN, "ADMIN_TOKEN", environment);
        this.adminTokens = new AdminTokenInterceptor(admin.token());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this.adminTokens).addPathPatterns("/api/v1/products/**");
    }

    @Bean
    NewTopic bookingsTopic(BookingProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions()).build();
    }

    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter(BookingProperties properties) {
        return new RequestBodyLimitFilter(properties.maxBodyBytes());
    }
}
