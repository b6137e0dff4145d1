package io.queuegate.web.openapi;

import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The description every service serves at {@code /v3/api-docs}, and what is added to every operation of it. */
@Configuration(proxyBeanMethods = false)
public class ApiDescriptionConfiguration {

    @Bean
    OpenAPI queuegateOpenApi(@Value("${spring.application.name}") String service) {
        return new OpenAPI()
            .info(new Info().title("Queuegate " + service)
                .description("Refusals are RFC 9457 application/problem+json (the Problem schema) with a stable "
                        + "`code` member; 429 and 503 come with Retry-After.")
                .version("v1")
                .license(new License().name("Apache License 2.0").identifier("Apache-2.0")))
            // Relative: the description is served by the service it describes, at whatever address a client
            // reached it (springdoc would otherwise write the address of the first request it answered).
            .servers(List.of(new Server().url("/").description("The service serving this description")));
    }

    /** Who may call (first, since admin operations gain a 401), then the problem answers of every refusal. */
    @Bean
    OpenApiCustomizer queuegateAnswers() {
        CallerRequirements callers = new CallerRequirements();
        ProblemAnswers problems = new ProblemAnswers();
        return openApi -> {
            callers.customise(openApi);
            problems.customise(openApi);
        };
    }
}
