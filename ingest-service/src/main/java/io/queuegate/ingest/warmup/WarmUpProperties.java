package io.queuegate.ingest.warmup;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The warm-up ingest runs at start, before it says it is ready ({@link WarmUp}).
 *
 * @param duration the longest enters and polls are driven through a scratch copy of the service; 0 turns the warm-up
 *        off
 * @param enters the least enters that go through before the warm-up may end
 * @param quietCompilation the warm-up ends, once {@code enters} went through, once the JIT compiled for less than this
 *        a second over three seconds
 * @param connections the warm-up's concurrent clients
 * @param scratch set on the scratch copy itself, never by hand: the copy does not warm up in turn
 */
@Validated
@ConfigurationProperties("queuegate.ingest.warm-up")
public record WarmUpProperties(
        @DefaultValue("90s") @NotNull Duration duration,
        @DefaultValue("20000") @Min(1) long enters,
        @DefaultValue("100ms") @NotNull Duration quietCompilation,
        @DefaultValue("16") @Min(1) int connections,
        @DefaultValue("false") boolean scratch) {
}
