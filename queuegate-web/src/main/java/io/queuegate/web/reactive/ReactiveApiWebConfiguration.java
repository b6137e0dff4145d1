package io.queuegate.web.reactive;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.web.StrictJsonConfiguration;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * What every Queuegate service on the reactive stack shares: strict JSON, request ids and problem answers, as
 * {@link io.queuegate.web.ApiWebConfiguration} gives the servlet ones.
 */
@Configuration(proxyBeanMethods = false)
@Import(StrictJsonConfiguration.class)
public class ReactiveApiWebConfiguration {

    @Bean
    RequestIdWebFilter requestIdWebFilter() {
        return new RequestIdWebFilter();
    }

    @Bean
    ProblemWebExceptionHandler problemWebExceptionHandler(JsonMapper json, MeterRegistry metrics) {
        return new ProblemWebExceptionHandler(json, metrics);
    }
}
