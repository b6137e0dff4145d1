package io.queuegate.ingest.enter;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Proof of work at join, for the queues whose settings ask for it ({@code challengeMaxNumber}).
 *
 * @param expires how long a challenge may be solved and used after it was handed out
 * @param rememberedProofs proofs this instance remembers as used until they expire, so that a proof enters once
 *        (a table of 16 bytes each, made at start); past it those nearest to their expiry are forgotten, and such a
 *        proof, replayed, can only give its own user the place that user already has
 */
@Validated
@ConfigurationProperties("queuegate.ingest.challenge")
public record ChallengeProperties(
        @DefaultValue("10m") @NotNull Duration expires,
        @DefaultValue("500000") @Min(1) int rememberedProofs) {
}
