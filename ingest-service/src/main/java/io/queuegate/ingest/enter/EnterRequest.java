package io.queuegate.ingest.enter;

import io.queuegate.core.token.UserIds;
import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** @param userId who enters; the caller's own id for the user, 1–64 characters of {@code [A-Za-z0-9._@:-]} */
record EnterRequest(
        @Schema(example = "u-1", pattern = UserIds.ALLOWED)
        @NotNull @Pattern(regexp = UserIds.ALLOWED, message = "must be 1-64 characters of [A-Za-z0-9._@:-]")
        String userId) {
}
