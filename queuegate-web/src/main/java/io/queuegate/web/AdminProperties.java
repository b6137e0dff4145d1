package io.queuegate.web;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** @param token the bearer token of the admin endpoints ({@code ADMIN_TOKEN}) */
@Validated
@ConfigurationProperties("queuegate.admin")
public record AdminProperties(@NotBlank String token) {

    /** The admin token of a local run; refused outside the {@code dev} profile. */
    public static final String DEV_TOKEN = "dev-admin-token";
}
