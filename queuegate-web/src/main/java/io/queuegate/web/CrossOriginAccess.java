package io.queuegate.web;

import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Opens a servlet service's public API to the pages of the configured origins ({@link CrossOriginPolicy}), so a waiting
 * page served by one service can book at another, or a shop can put the line into its own page. Declared as a bean
 * with the paths and methods to open.
 */
public class CrossOriginAccess implements WebMvcConfigurer {

    private final CorsConfiguration policy;

    private final String pathPattern;

    public CrossOriginAccess(WebProperties properties, String pathPattern, String... methods) {
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
