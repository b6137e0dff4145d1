package io.queuegate.ingest.enter;

import io.queuegate.core.queue.TokenStatus;

/** The answer to an accepted enter: the token to poll with. */
record EntryAccepted(String token, long productId, TokenStatus status) {
}
