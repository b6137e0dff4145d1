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
 * @param duration the longest enters and polls are driven through a scratch copy of the service; 0 turns the warm-up
 *        off
 * @param enters the warm-up ends sooner once this many enters went through: on two cores about 20,000 to 30,000 are
 *        what the JIT needs before the rate stops climbing, and they take from 10 s to 25 s while the other services
 *        start beside it
 * @param connections the warm-up's concurrent clients
 * @param scratch set on the scratch copy itself, never by hand: its enters go to no broker
 */
@Validated
@ConfigurationProperties("queuegate.ingest.warm-up")
public record WarmUpProperties(
        @DefaultValue("30s") @NotNull Duration duration,
        @DefaultValue("30000") @Min(1) long enters,
        @DefaultValue("16") @Min(1) int connections,
        @DefaultValue("false") boolean scratch) {
}
