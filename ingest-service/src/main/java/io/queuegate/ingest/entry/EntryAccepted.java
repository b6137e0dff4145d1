package io.queuegate.ingest.entry;

import io.queuegate.core.queue.EntryStatus;

/** The answer to an accepted enter: the token to poll with. */
record EntryAccepted(String token, long productId, EntryStatus status) {
}
