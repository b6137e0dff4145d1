package io.queuegate.ingest.enter;

import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.token.Lane;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Whose place an enter is for, by the queue's identity. A token is a function of the product and the user id, so
 * this is where a place is bound to its holder: nobody gets a user id's place without what the identity asks for.
 * <ul>
 * <li>{@code visitor}: the server makes the id; an enter that names one is refused.</li>
 * <li>{@code trusted}: the shop's backend names its user and carries an enter key.</li>
 * <li>{@code pass}: the pass the shop signed names the user.</li>
 * </ul>
 * In every identity the holder of a token this line issued may enter with it again and keep the place.
 */
@Component
record Entrants(TokenCodec tokens, EnterKeys keys, VisitorIds visitors) {

    /**
     * Who enters.
     *
     * @param userId the user id the token is issued for
     * @param lane the lane the place is in
     * @param boundTo the user id a proof of work must have been fetched for, besides one fetched for anyone; null for
     *        a visitor, whose id did not exist when the challenge was fetched
     * @param returning whether the enter came with its own token: its place was paid for when the token was issued
     */
    record Entrant(String userId, Lane lane, String boundTo, boolean returning) {
    }

    /**
     * @param authorization the request's {@code Authorization} header, or null
     * @throws ApiException the refusal to answer: 400, 401 or 403 as the identity says, or 503 when a pass cannot be
     *         verified for now
     */
    Entrant entrant(long productId, QueueDirectory.Door door, EnterRequest request, String authorization) {
        if (request.token() != null) {
            return returning(productId, request);
        }
        return switch (door.identity()) {
            case VISITOR -> visitor(productId, door, request);
            case TRUSTED -> trusted(productId, door, request, authorization);
            case PASS -> passHolder(productId, door, request);
        };
    }

    private Entrant returning(long productId, EnterRequest request) {
        if (request.userId() != null || request.pass() != null) {
            throw ApiException.invalidRequest("Enter again with the token alone: it names the user already.");
        }
        Token token = this.tokens.verify(request.token(), productId).orElseThrow(() -> new ApiException(
                HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_TOKEN, "This line did not issue that token."));
        return new Entrant(token.userId(), token.lane(), token.userId(), true);
    }

    /** A visitor gets an id made here, unless a pass names who they are. */
    private Entrant visitor(long productId, QueueDirectory.Door door, EnterRequest request) {
        if (request.userId() != null) {
            throw new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.USER_ID_NOT_ACCEPTED, "The line of product "
                    + productId + " makes its visitors' ids: enter with {} (or {\"token\": ...} to enter again).");
        }
        if (request.pass() != null) {
            PassVerifier.Holder holder = door.holder(productId, request.pass());
            return new Entrant(holder.userId(), holder.lane(), holder.userId(), false);
        }
        return new Entrant(this.visitors.next(), Lane.GENERAL, null, false);
    }

    private Entrant trusted(long productId, QueueDirectory.Door door, EnterRequest request, String authorization) {
        // a body that cannot be an enter is bad input whoever sends it: 400 before the key is asked for
        if (request.userId() == null) {
            throw new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.USER_ID_REQUIRED,
                    "Name the user who enters: userId.");
        }
        if (!EnterKeys.presented(authorization)) {
            throw new ApiException(HttpStatus.UNAUTHORIZED, ProblemCodes.ENTER_KEY_REQUIRED, "The line of product "
                    + productId + " is entered by the shop on its users' behalf: Authorization: Bearer <enter key>.");
        }
        if (!this.keys.accepts(authorization)) {
            throw new ApiException(HttpStatus.UNAUTHORIZED, ProblemCodes.ENTER_KEY_INVALID,
                    "The enter key is not one of this deployment's.");
        }
        return new Entrant(request.userId(), door.lane(productId, request.userId(), request.pass()),
                request.userId(), false);
    }

    private Entrant passHolder(long productId, QueueDirectory.Door door, EnterRequest request) {
        if (request.pass() == null) {
            throw new ApiException(HttpStatus.FORBIDDEN, ProblemCodes.PASS_REQUIRED, "The line of product "
                    + productId + " is entered with a pass: enter with the pass the shop gave you.");
        }
        PassVerifier.Holder holder = door.holder(productId, request.pass());
        if (request.userId() != null && !request.userId().equals(holder.userId())) {
            throw new ApiException(HttpStatus.FORBIDDEN, ProblemCodes.PASS_INVALID,
                    "The pass is for another user: enter with the pass alone.");
        }
        return new Entrant(holder.userId(), holder.lane(), holder.userId(), false);
    }
}
