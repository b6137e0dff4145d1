package io.queuegate.web;

import java.net.InetAddress;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param token the bearer token of the admin endpoints ({@code ADMIN_TOKEN})
 * @param address where a service whose port serves only its admin API (the admission worker) listens, for example
 *        {@code 127.0.0.1} so that only this host reaches it; unset, the service port's own {@code server.address}
 */
@Validated
@ConfigurationProperties("queuegate.admin")
public record AdminProperties(@NotBlank String token, InetAddress address) {

    /** The admin token of a local run; refused outside the {@code dev} profile. */
    public static final String DEV_TOKEN = io.queuegate.core.secret.SecretPolicy.DEV_ADMIN_TOKEN;
}
