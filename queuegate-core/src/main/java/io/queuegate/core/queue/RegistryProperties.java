package io.queuegate.core.queue;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param registry the Redis set of product ids the admission workers walk, after {@code queuegate.redis.key-prefix}.
 *        Deployments that share one Redis keep apart with a key prefix each, which keeps every key apart; a
 *        registry of its own keeps only the walk apart (the products' keys are shared, so the product ids must not
 *        overlap)
 */
@Validated
@ConfigurationProperties("queuegate.queues")
public record RegistryProperties(@DefaultValue(QueueKeys.REGISTRY) @NotBlank String registry) {
}
