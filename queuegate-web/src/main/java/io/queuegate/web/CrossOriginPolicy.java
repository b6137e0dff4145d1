package io.queuegate.web;

import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Which pages of other origins may call a service's public API from the browser (CORS), whichever HTTP stack serves
 * it: only the configured origins, with the given methods; never credentials, since the API authenticates by the
 * token in the request, not by cookies, so no other site can act for a user.
 */
public final class CrossOriginPolicy {

    private CrossOriginPolicy() {
    }

    /** The CORS settings for these methods, or null when no origin is allowed (pages of the service's own need none). */
    public static CorsConfiguration of(WebProperties properties, String... methods) {
        if (properties.allowedOrigins().isEmpty()) {
            return null;
        }
        CorsConfiguration configuration = new CorsConfiguration();
        configuration.setAllowedOrigins(properties.allowedOrigins());
        configuration.setAllowedMethods(List.of(methods));
        configuration.setAllowedHeaders(List.of(HttpHeaders.CONTENT_TYPE, RequestIds.HEADER));
        // a page needs Retry-After to back off, Location to find its entry, and the request id to report
        configuration.setExposedHeaders(List.of(HttpHeaders.RETRY_AFTER, HttpHeaders.LOCATION, RequestIds.HEADER));
        configuration.setAllowCredentials(false);
        configuration.setMaxAge(3600L);
        return configuration;
    }
}
