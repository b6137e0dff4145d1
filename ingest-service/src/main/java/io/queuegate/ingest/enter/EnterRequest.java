package io.queuegate.ingest.enter;

import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.UserIds;
import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * What an enter says; which members a line takes depends on its identity. An empty body is a visitor's first enter.
 *
 * @param userId who enters, named by the shop's backend (identity "trusted", with the enter key) or by a pass's
 *        holder (identity "pass", equal to the pass's subject); 1–64 characters of {@code [A-Za-z0-9._@:-]}
 * @param token the place's own token, to enter again and keep the place (any identity)
 * @param proof the solved proof-of-work challenge, for a line that asks for one: ALTCHA's payload
 * @param pass the shop's signed pass: the user's identity in a line of identity "pass", or a place in the priority
 *        lane
 */
record EnterRequest(
        @Schema(nullable = true, example = "u-1", pattern = UserIds.ALLOWED, description = """
                Identity "trusted": the shop's user, with Authorization: Bearer <enter key>. Identity "pass": may be \
                given, equal to the pass's subject. Identity "visitor": never (400 user_id_not_accepted); the server \
                makes the id""")
        @Pattern(regexp = UserIds.ALLOWED, message = "must be 1-64 characters of [A-Za-z0-9._@:-]")
        String userId,
        @Schema(nullable = true, maxLength = TokenCodec.MAX_TOKEN_LENGTH, description = """
                The token of the place this line issued: enter again with it alone and keep the place (202 with the \
                same token). A token this line did not issue: 400 invalid_token""")
        @Size(max = TokenCodec.MAX_TOKEN_LENGTH, message = "must be at most " + TokenCodec.MAX_TOKEN_LENGTH
                + " characters")
        String token,
        @Schema(nullable = true, maxLength = MAX_PROOF_LENGTH, description = """
                For a line that asks for proof of work: base64 of the JSON {algorithm, challenge, number, salt, \
                signature} of a solved challenge (GET .../challenge), ALTCHA's payload""")
        @Size(max = MAX_PROOF_LENGTH, message = "must be at most " + MAX_PROOF_LENGTH + " characters")
        String proof,
        @Schema(nullable = true, maxLength = PassVerifier.MAX_PASS_LENGTH, description = """
                A pass the shop's backend signed (JWS, ES256, by a key of the line's passKeys) with sub (the user \
                id), product, exp and optionally lane "priority". Required in identity "pass", where the user id is \
                its subject; elsewhere optional: in "visitor" the holder enters as its subject, in "trusted" its \
                subject must be the userId. A priority pass places the user in the lane admitted before the general \
                line""")
        @Size(max = PassVerifier.MAX_PASS_LENGTH, message = "must be at most " + PassVerifier.MAX_PASS_LENGTH
                + " characters")
        String pass) {

    /** Far more than a payload of ALTCHA's takes (about 400 characters). */
    static final int MAX_PROOF_LENGTH = 2048;
}
