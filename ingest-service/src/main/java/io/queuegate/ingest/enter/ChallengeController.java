package io.queuegate.ingest.enter;

import io.queuegate.core.token.UserIds;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Hands out the proof-of-work challenge of a line that asks for one ({@code challengeMaxNumber}). The HTTP front
 * ({@link ChallengeRoute}) answers well-formed same-origin fetches for a line it knows itself; this controller answers
 * the rest (refusals, cross-origin fetches) and describes the API.
 */
@RestController
@Tag(name = "entries", description = "Enter a product's line, poll your place, leave")
record ChallengeController(Challenges challenges) {

    @GetMapping(path = "/api/v1/queues/{productId}/challenge", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Fetch a proof-of-work challenge", description = """
            ALTCHA's challenge (algorithm, challenge, maxnumber, salt, signature) for this line, and for this user when \
            userId is given. Find the number n (0..maxnumber) for which SHA-256(salt + n) is the challenge, and enter \
            with proof = base64 of {algorithm, challenge, number, salt, signature}. A proof is good for one enter in \
            this line (of this user, when it was fetched for one), until the expiry in its salt. A visitor, whose id \
            the server makes at the enter, fetches it without userId.""")
    @ApiResponse(responseCode = "200", description = "The challenge")
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId or userId")
    @ApiResponse(responseCode = "404", description = "queue_not_found, or not_found: this line asks for no proof")
    Mono<ResponseEntity<Challenge>> challenge(@PathVariable("productId") String productIdText,
            @Parameter(description = "who will enter with the proof; left out, whoever enters with it", example = "u-1")
            @RequestParam(name = "userId", required = false) String userId) {
        long productId = ProductIds.parse(productIdText);
        if (userId != null && !UserIds.isValid(userId)) {
            throw ApiException.invalidRequest("userId must be 1-64 characters of [A-Za-z0-9._@:-].");
        }
        String forWhom = userId == null ? ProofOfWork.ANYONE : userId;
        Mono<ResponseEntity<Challenge>> answer = Mono.fromCallable(() -> ResponseEntity.ok()
            .cacheControl(CacheControl.noStore())
            .body(this.challenges.challenge(productId, forWhom)));
        // a line ingest does not know yet is read from Redis, never on an event loop
        return this.challenges.knows(productId) ? answer : answer.subscribeOn(Schedulers.boundedElastic());
    }
}
