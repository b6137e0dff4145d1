package io.queuegate.web;

import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Opens a servlet service's public API to the pages of the configured origins ({@link CrossOriginPolicy}), so a waiting
 * page served by one service can book at another, or a shop can put the line into its own page. Declared as a bean
 * with the policy of the paths and methods to open.
 */
public record CrossOriginAccess(CrossOriginPolicy policy) implements WebMvcConfigurer {

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        this.policy.register((path, configuration) -> registry.addMapping(path).combine(configuration));
    }
}
