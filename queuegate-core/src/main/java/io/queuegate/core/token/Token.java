package io.queuegate.core.token;

/**
 * What a verified token says: which product's line it belongs to and whom it was issued to.
 *
 * @param productId the product whose line the token holds a place in
 * @param userId the user the token was issued to
 * @param value the token as the client sends it
 */
public record Token(long productId, String userId, String value) {
}
