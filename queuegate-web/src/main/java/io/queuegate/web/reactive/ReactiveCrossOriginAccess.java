package io.queuegate.web.reactive;

import io.queuegate.web.CrossOriginPolicy;
import io.queuegate.web.WebProperties;

import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.reactive.config.CorsRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Opens a reactive service's public API to the pages of the configured origins ({@link CrossOriginPolicy}), as
 * {@link io.queuegate.web.CrossOriginAccess} does on the servlet stack. Declared as a bean with the paths and methods
 * to open.
 */
public class ReactiveCrossOriginAccess implements WebFluxConfigurer {

    private final CorsConfiguration policy;

    private final String pathPattern;

    public ReactiveCrossOriginAccess(WebProperties properties, String pathPattern, String... methods) {
        this.policy = CrossOriginPolicy.of(properties, methods);
        this.pathPattern = pathPattern;
    }

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        if (this.policy != null) {
            registry.addMapping(this.pathPattern).combine(this.policy);
        }
    }
}
