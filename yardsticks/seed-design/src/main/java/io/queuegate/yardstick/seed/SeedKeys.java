package io.queuegate.yardstick.seed;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The seed design's two ZSets per product: {@code waiting} (tokens scored by the time they entered) and {@code entry}
 * (admitted tokens scored by their expiry). Every key starts with {@code seed.key-prefix} because the app shares Redis
 * with Queuegate, whose own line is {@code waiting:{p}}; the product id is a hash tag as in Queuegate's keys.
 */
@ConfigurationProperties("seed")
record SeedKeys(String keyPrefix) {

    SeedKeys {
        if (keyPrefix == null || keyPrefix.isBlank()) {
            throw new IllegalArgumentException("seed.key-prefix must not be empty: the app would write Queuegate's "
                    + "own waiting:{p} keys");
        }
    }

    String waiting(long productId) {
        return this.keyPrefix + "waiting:{" + productId + "}";
    }

    String entry(long productId) {
        return this.keyPrefix + "entry:{" + productId + "}";
    }
}
