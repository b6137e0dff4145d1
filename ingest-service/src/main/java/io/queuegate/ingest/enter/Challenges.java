package io.queuegate.ingest.enter;

import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * The proof-of-work challenge of a line, whichever route hands it out: only a line that asks for a proof
 * ({@code challengeMaxNumber}) has one, with the secret number at most that.
 */
@Component
record Challenges(QueueDirectory queues, ProofOfWork proofOfWork) {

    /** Whether the line is in memory, so that {@link #challenge} answers without reading Redis. */
    boolean knows(long productId) {
        return this.queues.knows(productId);
    }

    /**
     * A challenge for this user in the product's line; reads the queue from Redis when it is not known.
     *
     * @throws ApiException 404 {@code queue_not_found}, or {@code not_found} when the line asks for no proof
     */
    Challenge challenge(long productId, String userId) {
        QueueDirectory.Door door = this.queues.requireKnown(productId);
        if (!door.asksForProof()) {
            throw new ApiException(HttpStatus.NOT_FOUND, ProblemCodes.NOT_FOUND,
                    "The line of product " + productId + " asks for no proof of work: enter without one.");
        }
        return this.proofOfWork.challenge(productId, userId, door.challengeMaxNumber());
    }

    /** The same without Redis or a refusal: null unless the line is in memory and asks for a proof. */
    Challenge challengeOfKnownLine(long productId, String userId) {
        if (!knows(productId)) {
            return null;
        }
        try {
            return challenge(productId, userId);
        }
        catch (ApiException ex) {
            return null;
        }
    }
}
