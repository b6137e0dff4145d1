package io.queuegate.web.egress;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What a service that sends requests to the URLs of queues' settings needs: {@code queuegate.egress.*}, and the
 * check of those URLs ({@link EgressUrls}) for where they are written. Each sender makes its own
 * {@link EgressClient}, with its own deadline.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EgressProperties.class)
public class EgressConfiguration {

    @Bean
    EgressUrls egressUrls(EgressProperties properties) {
        return new EgressUrls(properties);
    }
}
