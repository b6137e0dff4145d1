package io.queuegate.ingest.entry;

import io.queuegate.core.queue.TokenStatus;

/** The answer to an accepted enter: the token to poll with. */
record EntryAccepted(String token, long productId, TokenStatus status) {
}
