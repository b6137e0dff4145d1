package io.queuegate.gate;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param maxQuantity the most units one booking may take
 * @param jwksUri where the queue publishes its admission keys (any Queuegate service's
 *        {@code /.well-known/jwks.json}): set, the gate also takes an admission (the JWS of an AVAILABLE status
 *        answer) where it takes a token, and verifies it with those keys alone
 */
@Validated
@ConfigurationProperties("queuegate.gate")
public record GateProperties(@DefaultValue("4") @Min(1) @Max(1000) int maxQuantity, String jwksUri) {
}
