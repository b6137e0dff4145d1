package io.queuegate.ingest.front;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The HTTP front: Reactor Netty on the service port, answering enters and polls itself and handing every other
 * request to the servlet stack behind it ({@link IngestFront}).
 *
 * @param enabled whether the front takes the service port; off, Tomcat answers everything on it, as any Spring Boot
 *        service does
 * @param ioThreads the front's event loops; 0 for one per core
 * @param backendConnections the most connections the front keeps to the servlet stack
 * @param idleTimeout how long a client's connection may stay silent before the front closes it
 */
@Validated
@ConfigurationProperties("queuegate.ingest.front")
public record FrontProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("0") @Min(0) int ioThreads,
        @DefaultValue("256") @Min(1) int backendConnections,
        @DefaultValue("60s") @NotNull Duration idleTimeout) {
}
