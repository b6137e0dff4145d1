package io.queuegate.ingest.warmup;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The warm-up a service runs at start, before it says it is ready ({@link WarmUp}).
 *
 * @param duration how long enters and polls are driven through a scratch copy of the service; 0 turns the warm-up off
 * @param connections the warm-up's concurrent clients
 * @param scratch set on the scratch copy itself, never by hand: its enters go to no broker
 */
@Validated
@ConfigurationProperties("queuegate.ingest.warm-up")
public record WarmUpProperties(
        @DefaultValue("10s") @NotNull Duration duration,
        @DefaultValue("16") @Min(1) int connections,
        @DefaultValue("false") boolean scratch) {
}
