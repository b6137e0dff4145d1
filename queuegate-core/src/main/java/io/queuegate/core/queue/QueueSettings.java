package io.queuegate.core.queue;

import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * How one product's line moves.
 *
 * @param maxActive how many admitted users may hold an entry at once
 * @param admitPerSecond how many users are admitted per second at most
 * @param entryTtlSeconds how long an admitted user may take to book
 * @param open whether new users may enter the line
 */
public record QueueSettings(
        @Schema(example = "1000") @NotNull @Min(1) @Max(10_000_000) Integer maxActive,
        @Schema(example = "200") @NotNull @Min(1) @Max(1_000_000) Integer admitPerSecond,
        @Schema(example = "1200") @NotNull @Min(1) @Max(86_400) Integer entryTtlSeconds,
        @Schema(example = "true") @NotNull Boolean open) {
}
