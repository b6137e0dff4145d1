package io.queuegate.web.reactive;

import io.queuegate.web.CrossOriginPolicy;

import org.springframework.web.reactive.config.CorsRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Opens a reactive service's public API to the pages of the configured origins ({@link CrossOriginPolicy}), as
 * {@link io.queuegate.web.CrossOriginAccess} does on the servlet stack. Declared as a bean with the policy of the
 * paths and methods to open.
 */
public record ReactiveCrossOriginAccess(CrossOriginPolicy policy) implements WebFluxConfigurer {

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        this.policy.register((path, configuration) -> registry.addMapping(path).combine(configuration));
    }
}
