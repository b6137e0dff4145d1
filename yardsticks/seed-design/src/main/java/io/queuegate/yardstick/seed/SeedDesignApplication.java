package io.queuegate.yardstick.seed;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The benchmark's second yardstick: the synchronous Redis ZSet waiting room Queuegate started from, as a public blog
 * post describes it (docs/BENCHMARKS.md). An enter issues a random token and adds it to {@code waiting} with one
 * {@code ZADD} before answering; a status poll looks the token up in {@code entry}, then in {@code waiting}. Nothing
 * is durable beyond Redis and nothing orders the line but the wall clock.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SeedDesignApplication {

    public static void main(String[] args) {
        SpringApplication.run(SeedDesignApplication.class, args);
    }
}
