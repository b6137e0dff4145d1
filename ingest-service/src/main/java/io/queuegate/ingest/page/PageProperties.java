package io.queuegate.ingest.page;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param bookingUrl where the waiting page books: booking-service's base URL as the browser reaches it, without a
 *        trailing slash; empty when a proxy serves booking-service under this service's own origin. That service
 *        must allow this page's origin ({@code queuegate.web.allowed-origins}).
 * @param demoProduct the product whose waiting page {@code /} opens
 */
@Validated
@ConfigurationProperties("queuegate.page")
public record PageProperties(
        @DefaultValue("http://127.0.0.1:8082") @NotNull
        @Pattern(regexp = "|https?://[^\\s/]+(/[^\\s]*[^\\s/])?", message = "must be empty or an http(s) URL without a trailing slash")
        String bookingUrl,
        @DefaultValue("1") @Min(1) long demoProduct) {
}
