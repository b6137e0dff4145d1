package io.queuegate.web;

import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets pages of the configured origins call a service's public API from the browser (CORS), so a waiting page
 * served by one service can book at another, or a shop can put the line into its own page. Declared as a bean
 * with the paths and methods to open; no origin is allowed unless configured. Credentials are never allowed:
 * the API authenticates by the token in the request, not by cookies, so no other site can act for a user.
 */
public class CrossOriginAccess implements WebMvcConfigurer {

    private final WebProperties properties;

    private final String pathPattern;

    private final String[] methods;

    public CrossOriginAccess(WebProperties properties, String pathPattern, String... methods) {
        this.properties = properties;
        this.pathPattern = pathPattern;
        this.methods = methods;
    }

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        if (this.properties.allowedOrigins().isEmpty()) {
            return;
        }
        registry.addMapping(this.pathPattern)
            .allowedOrigins(this.properties.allowedOrigins().toArray(String[]::new))
            .allowedMethods(this.methods)
            .allowedHeaders("Content-Type", RequestIdFilter.HEADER)
            // a page needs Retry-After to back off, Location to find its entry, and the request id to report
            .exposedHeaders("Retry-After", "Location", RequestIdFilter.HEADER)
            .allowCredentials(false)
            .maxAge(3600);
    }
}
