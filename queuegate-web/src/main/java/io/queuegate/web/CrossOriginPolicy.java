package io.queuegate.web;

import java.util.List;
import java.util.function.BiConsumer;

import org.springframework.http.HttpHeaders;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Which pages of other origins may call a service's public API from the browser (CORS), whichever HTTP stack serves
 * it: only the configured origins, on the given paths with the given methods; never credentials, since the API
 * authenticates by the token in the request, not by cookies, so no other site can act for a user. Each stack's
 * configurer ({@link CrossOriginAccess}, {@code ReactiveCrossOriginAccess}) only hands it its registry.
 */
public final class CrossOriginPolicy {

    private final String pathPattern;

    /** Null when no origin is allowed: pages of the service's own need no CORS. */
    private final CorsConfiguration configuration;

    private CrossOriginPolicy(String pathPattern, CorsConfiguration configuration) {
        this.pathPattern = pathPattern;
        this.configuration = configuration;
    }

    /** The policy of the paths that {@code pathPattern} matches, opened to the configured origins for these methods. */
    public static CrossOriginPolicy of(WebProperties properties, String pathPattern, String... methods) {
        if (properties.allowedOrigins().isEmpty()) {
            return new CrossOriginPolicy(pathPattern, null);
        }
        CorsConfiguration configuration = new CorsConfiguration();
        configuration.setAllowedOrigins(properties.allowedOrigins());
        configuration.setAllowedMethods(List.of(methods));
        configuration.setAllowedHeaders(List.of(HttpHeaders.CONTENT_TYPE, RequestIds.HEADER));
        // a page needs Retry-After to back off, Location to find its entry, and the request id to report
        configuration.setExposedHeaders(List.of(HttpHeaders.RETRY_AFTER, HttpHeaders.LOCATION, RequestIds.HEADER));
        configuration.setAllowCredentials(false);
        configuration.setMaxAge(3600L);
        return new CrossOriginPolicy(pathPattern, configuration);
    }

    /**
     * Hands the mapping to a stack's CORS registry ({@code (path, configuration) -> registry.addMapping(path)
     * .combine(configuration)}); nothing when no origin is allowed.
     */
    public void register(BiConsumer<String, CorsConfiguration> mapping) {
        if (this.configuration != null) {
            mapping.accept(this.pathPattern, this.configuration);
        }
    }
}
