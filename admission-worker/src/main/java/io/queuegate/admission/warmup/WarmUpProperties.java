package io.queuegate.admission.warmup;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The warm-up the worker runs at start, before it says it is ready ({@link WarmUp}).
 *
 * @param duration the longest enters are written and admitted by a scratch copy of the worker; 0 turns the warm-up
 *        off
 * @param enters the least enters the copy writes into its line before the warm-up may end
 * @param quietCompilation the warm-up ends, once {@code enters} are in the line, once the JIT compiled for less than this
 *        a second over three seconds
 * @param rate the most enters a second the warm-up publishes: enough for the JIT, little enough to leave ingest's
 *        warm-up, which runs at the same time on a machine of both, the CPU it needs
 * @param scratch set on the scratch copy itself, never by hand: the copy does not warm up in turn
 */
@Validated
@ConfigurationProperties("queuegate.admission.warm-up")
public record WarmUpProperties(
        @DefaultValue("60s") @NotNull Duration duration,
        @DefaultValue("100000") @Min(1) long enters,
        @DefaultValue("100ms") @NotNull Duration quietCompilation,
        @DefaultValue("5000") @Min(1) int rate,
        @DefaultValue("false") boolean scratch) {
}
