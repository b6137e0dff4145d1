package io.queuegate.core.token;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param secret the HMAC key of entry tokens ({@code QUEUE_TOKEN_SECRET}); every service of a deployment
 * shares it, and changing it invalidates every token issued
 */
@Validated
@ConfigurationProperties("queuegate.token")
public record TokenProperties(@NotBlank @Size(min = 16) String secret) {

    /** The key of a local run; refused outside the {@code dev} profile. */
    public static final String DEV_SECRET = io.queuegate.core.secret.SecretPolicy.DEV_TOKEN_SECRET;
}
