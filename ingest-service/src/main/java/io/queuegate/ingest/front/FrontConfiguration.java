package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.ingest.IngestProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

@Configuration(proxyBeanMethods = false)
class FrontConfiguration {

    @Bean
    FrontReplies frontReplies(JsonMapper json, MeterRegistry metrics) {
        return new FrontReplies(json, metrics);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "queuegate.ingest.front.enabled", matchIfMissing = true)
    static class Enabled {

        @Bean
        IngestFront ingestFront(ApplicationContext context, ConfigurableEnvironment environment,
                FrontProperties properties, List<FastPath> paths, FrontReplies replies, IngestProperties ingest) {
            return new IngestFront(context, environment, properties, paths, replies, ingest.maxBodyBytes());
        }

        /**
         * The servlet stack moves off the service port to a free loopback one: the front takes the service port and
         * hands it what it does not answer. Unordered, so it is applied after Boot's own {@code server.*} settings.
         */
        @Bean
        WebServerFactoryCustomizer<ConfigurableWebServerFactory> servletStackBehindFront() {
            return (factory) -> {
                factory.setPort(0);
                factory.setAddress(InetAddress.getLoopbackAddress());
            };
        }
    }
}
