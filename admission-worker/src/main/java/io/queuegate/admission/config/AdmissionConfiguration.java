package io.queuegate.admission.config;

import io.queuegate.core.QueueCoreConfiguration;
import io.queuegate.core.web.AdminProperties;
import io.queuegate.core.web.AdminTokenInterceptor;
import io.queuegate.core.web.ApiWebConfiguration;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(AdminProperties.class)
@Import(ApiWebConfiguration.class)
class AdmissionConfiguration implements WebMvcConfigurer {

    private final AdminTokenInterceptor adminTokens;

    AdmissionConfiguration(AdminProperties admin, Environment environment) {
        QueueCoreConfiguration.requireRealSecret(admin.token(), AdminProperties.DEV_TOKEN, "ADMIN_TOKEN", environment);
        this.adminTokens = new AdminTokenInterceptor(admin.token());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this.adminTokens).addPathPatterns("/api/v1/queues/**");
    }

    @Bean
    NewTopic entriesTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.topic()).partitions(properties.partitions()).build();
    }

    @Bean
    NewTopic auditTopic(AdmissionProperties properties) {
        return TopicBuilder.name(properties.auditTopic()).partitions(properties.partitions()).build();
    }
}
