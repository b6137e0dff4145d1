package io.queuegate.ingest.enter;

import io.queuegate.core.queue.TokenStatus;

/**
 * The answer to an accepted enter.
 *
 * @param token the place's token: whoever holds it holds the place, so it is kept like a password
 * @param userId whom the place is for: the id the server made for a visitor, the shop's user, or a pass's subject
 */
record EntryAccepted(String token, String userId, long productId, TokenStatus status) {
}
