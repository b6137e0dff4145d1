package io.queuegate.core.queue;

import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param keyPrefix put before the name of every Redis key this deployment reads or writes (e.g. {@code tenantA:}, so
 *        {@code tenantA:waiting:{42}}), so that deployments sharing one Redis or one Redis Cluster never touch each
 *        other's keys; every service of a deployment (and the booking gate) must use the same one. Empty by default.
 *        No braces or whitespace: the product's hash tag must stay the first {@code {...}} of each key
 */
@Validated
@ConfigurationProperties("queuegate.redis")
public record RedisKeyProperties(@DefaultValue("") @Pattern(regexp = "[^{}\\s]*") String keyPrefix) {

    public Keyspace keyspace() {
        return new Keyspace(this.keyPrefix == null ? "" : this.keyPrefix);
    }
}
