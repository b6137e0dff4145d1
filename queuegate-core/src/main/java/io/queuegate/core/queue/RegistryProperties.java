package io.queuegate.core.queue;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param registry the Redis set of product ids the admission workers walk. Workers tick every product in it, so two
 *        deployments that share one Redis (or a test stack beside a running one) keep apart by naming their own;
 *        the products' keys stay as they are, so the product ids must not overlap
 */
@Validated
@ConfigurationProperties("queuegate.queues")
public record RegistryProperties(@DefaultValue(QueueKeys.REGISTRY) @NotBlank String registry) {
}
