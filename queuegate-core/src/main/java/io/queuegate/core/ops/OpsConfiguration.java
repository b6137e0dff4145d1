package io.queuegate.core.ops;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/** What operators of every service get: Kafka health and the OpenAPI description. */
@Configuration(proxyBeanMethods = false)
public class OpsConfiguration {

    /** Registered as the {@code kafka} health contributor, beside Boot's {@code redis}. */
    @Bean
    static KafkaClusterName kafkaClusterName(
            @Value("${spring.kafka.bootstrap-servers:localhost:9092}") String bootstrapServers) {
        return new KafkaClusterName(bootstrapServers);
    }

    @Bean
    KafkaHealthIndicator kafkaHealthIndicator(KafkaAdmin kafkaAdmin) {
        return new KafkaHealthIndicator(kafkaAdmin);
    }

    @Bean
    OpenAPI queuegateOpenApi(@Value("${spring.application.name}") String service) {
        return new OpenAPI()
            .info(new Info().title("Queuegate " + service)
                .description("Errors are RFC 9457 application/problem+json with a stable `code` member: "
                        + "invalid_request, invalid_token, queue_not_found, queue_closed, unauthorized, "
                        + "token_not_admitted, sold_out, payload_too_large, unsupported_media_type, not_found, "
                        + "unavailable (with Retry-After).")
                .version("v1")
                .license(new License().name("Apache-2.0")))
            .components(new Components().addSecuritySchemes("admin",
                    new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("ADMIN_TOKEN")));
    }
}
