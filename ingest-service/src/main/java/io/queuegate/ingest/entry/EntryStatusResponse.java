package io.queuegate.ingest.entry;

import io.queuegate.core.queue.EntryStatus;

/**
 * @param position 1-based place in the line when WAITING, otherwise null
 * @param status PENDING, WAITING, AVAILABLE, EXPIRED or SOLD_OUT
 * @param etaSeconds estimated wait until admission when WAITING, at the pace admissions are actually made (the
 *        queue's admitPerSecond until there is history); otherwise null
 * @param expiresAt epoch milliseconds the entry ends when AVAILABLE, otherwise null
 * @param pollAfterMs when to poll next (also sent as Retry-After, in seconds); null once there is nothing left to
 *        wait for
 */
record EntryStatusResponse(String token, long productId, EntryStatus status, Long position, Long etaSeconds,
        Long expiresAt, Long pollAfterMs) {
}
