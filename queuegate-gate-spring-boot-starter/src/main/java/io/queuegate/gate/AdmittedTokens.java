package io.queuegate.gate;

import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;

/**
 * The first step of a booking, without Redis: what a token presented at the counter says, when it is genuine. An
 * entry token this deployment issued is verified by the queue's secret; with {@code queuegate.gate.jwks-uri} set, an
 * admission (a JWS, told apart by its dots, which a token never has) is verified by the published keys. Either way
 * the reserving script still checks the admission itself: one revoked or used since it was signed is refused.
 */
final class AdmittedTokens {

    /** Null for a gate without the queue's secret, which takes admissions alone. */
    private final TokenCodec tokens;

    /** Null unless {@code queuegate.gate.jwks-uri} is set. */
    private final AdmissionVerifier admissions;

    AdmittedTokens(TokenCodec tokens, AdmissionVerifier admissions) {
        this.tokens = tokens;
        this.admissions = admissions;
    }

    /**
     * The token's content.
     *
     * @throws GateRejectedException 403 {@code token_not_admitted} for anything this gate cannot verify
     */
    Token verify(long productId, String token) {
        if (this.admissions != null && token != null && token.indexOf('.') > 0) {
            return this.admissions.verify(token, productId)
                .map((admission) -> new Token(productId, admission.userId(), admission.token()))
                .orElseThrow(GateRejectedException::notAdmitted);
        }
        if (this.tokens == null) {
            // a gate that knows only the published keys takes admissions alone
            throw GateRejectedException.notAdmitted();
        }
        return this.tokens.verify(token, productId).orElseThrow(GateRejectedException::notAdmitted);
    }
}
