package io.queuegate.ingest.enter;

import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.token.UserIds;
import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * @param userId who enters; the caller's own id for the user, 1–64 characters of {@code [A-Za-z0-9._@:-]}
 * @param proof the solved proof-of-work challenge, for a line that asks for one: ALTCHA's payload
 * @param pass the shop's signed pass: an invitation to an invite-only line, or a place in the priority lane
 */
record EnterRequest(
        @Schema(example = "u-1", pattern = UserIds.ALLOWED)
        @NotNull @Pattern(regexp = UserIds.ALLOWED, message = "must be 1-64 characters of [A-Za-z0-9._@:-]")
        String userId,
        @Schema(nullable = true, maxLength = MAX_PROOF_LENGTH, description = "For a line that asks for proof of "
                + "work: base64 of the JSON {algorithm, challenge, number, salt, signature} of a solved challenge "
                + "(GET .../challenge), ALTCHA's payload")
        @Size(max = MAX_PROOF_LENGTH, message = "must be at most " + MAX_PROOF_LENGTH + " characters")
        String proof,
        @Schema(nullable = true, maxLength = PassVerifier.MAX_PASS_LENGTH, description = "A pass the shop's backend "
                + "signed (JWS, ES256, by a key of the line's passKeys) with sub = userId, product, exp and optionally "
                + "lane \"priority\": required by an invite-only line; a priority pass places the user in the lane "
                + "admitted before the general line")
        @Size(max = PassVerifier.MAX_PASS_LENGTH, message = "must be at most " + PassVerifier.MAX_PASS_LENGTH
                + " characters")
        String pass) {

    /** Far more than a payload of ALTCHA's takes (about 400 characters). */
    static final int MAX_PROOF_LENGTH = 2048;
}
