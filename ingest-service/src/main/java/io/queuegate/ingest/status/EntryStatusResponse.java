package io.queuegate.ingest.status;

import io.queuegate.core.queue.TokenStatus;

/**
 * @param status PENDING, WAITING, AVAILABLE, EXPIRED or SOLD_OUT
 * @param position 1-based place in the line when WAITING, otherwise null; null too while WAITING for the sale to
 *        open (the order is drawn at the opening)
 * @param etaSeconds estimated wait until admission when WAITING, at the pace admissions are actually made (the
 *        queue's admitPerSecond until there is history); otherwise null
 * @param expiresAt epoch milliseconds the entry ends when AVAILABLE, otherwise null
 * @param pollAfterMs when to poll next (also sent as Retry-After, in seconds); null once there is nothing left to
 *        wait for
 * @param opensAt epoch milliseconds the sale opens, when the queue has an opening time; otherwise null
 * @param admission when AVAILABLE, the admission: a JWS (ES256) with sub (the user id), product, exp (= expiresAt),
 *        jti (the token) and the key's kid, which a shop verifies with {@code /.well-known/jwks.json} alone;
 *        otherwise null
 */
record EntryStatusResponse(String token, long productId, TokenStatus status, Long position, Long etaSeconds,
        Long expiresAt, Long pollAfterMs, Long opensAt, String admission) {
}
