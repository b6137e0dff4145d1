package io.queuegate.core.token;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import io.queuegate.core.admission.AdmissionSigner;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param secret the HMAC key of entry tokens ({@code QUEUE_TOKEN_SECRET}); every service of a deployment
 * shares it, and changing it invalidates every token issued. Required wherever tokens are issued or checked (the
 * services refuse to start without it, SecretPolicy); a gate given only {@code queuegate.gate.jwks-uri} needs none
 * @param signingKeys the keys admissions are signed with (ES256), as a JWK set of private P-256 keys with a kid each:
 * the first signs, all are published at {@code /.well-known/jwks.json}. To rotate, put a new key first and keep the
 * old one second until the longest entryTtlSeconds has passed, then drop it. Unset: one key derived from the secret
 * @param issuer the {@code iss} of every admission this deployment signs, and the only one a gate verifying admissions
 * by the published keys takes: set the same value on every service and on the shops' gates. Two deployments that
 * share signing keys (or a shop that signs its passes with them) tell their tokens apart by it; a URL of the
 * deployment, such as its public address, is a good choice. Default {@code queuegate}
 */
@Validated
@ConfigurationProperties("queuegate.token")
public record TokenProperties(@Size(min = 16) String secret, String signingKeys,
        @DefaultValue(AdmissionSigner.DEFAULT_ISSUER) @NotBlank String issuer) {

    /** The key of a local run; refused outside the {@code dev} profile. */
    public static final String DEV_SECRET = io.queuegate.core.secret.SecretPolicy.DEV_TOKEN_SECRET;
}
