package io.queuegate.core.token;

/**
 * What a verified token says: which product's line it belongs to, whom it was issued to and in which lane.
 *
 * @param productId the product whose line the token holds a place in
 * @param userId the user the token was issued to
 * @param value the token as the client sends it
 * @param lane the lane the place is in: a priority pass's tokens say so, signed like the rest
 */
public record Token(long productId, String userId, String value, Lane lane) {

    /** A token of the general line. */
    public Token(long productId, String userId, String value) {
        this(productId, userId, value, Lane.GENERAL);
    }
}
