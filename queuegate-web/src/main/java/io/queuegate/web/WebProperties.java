package io.queuegate.web;

import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param allowedOrigins origins ({@code scheme://host[:port]}, no path) whose pages may call this service's API
 *        from the browser. Empty: only pages the service serves itself, which need no permission.
 */
@Validated
@ConfigurationProperties("queuegate.web")
public record WebProperties(
        @DefaultValue({}) @NotNull List<@Pattern(regexp = ORIGIN, message = "must be scheme://host[:port]") String> allowedOrigins) {

    /** An origin as a browser sends it: a scheme, a host and an optional port, nothing after. */
    public static final String ORIGIN = "https?://[A-Za-z0-9.\\-\\[\\]:]+";
}
