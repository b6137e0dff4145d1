package io.queuegate.ingest.status;

import io.queuegate.core.queue.TokenStatus;

/**
 * @param status PENDING, WAITING, AVAILABLE, EXPIRED or SOLD_OUT
 * @param position 1-based place in the line when WAITING, otherwise null; null too while WAITING for the sale to
 *        open (the order is drawn at the opening)
 * @param etaSeconds estimated wait until admission when WAITING, at the pace admissions are actually made; before
 *        that pace is measured, the shortest the wait can be (the line moving at admitPerSecond); otherwise null
 * @param etaMaxSeconds while the pace is not measured yet and the settings leave a range, the longest the wait can
 *        be (places held up to entryTtlSeconds each): the wait lies between etaSeconds and this. Null once the pace
 *        is measured, or when the settings bind it to one figure
 * @param expiresAt epoch milliseconds the entry ends when AVAILABLE; when SOLD_OUT, the end of the admission a user
 *        admitted before the stock ran out keeps (AVAILABLE again if stock returns before then); otherwise null
 * @param pollAfterMs when to poll next (also sent as Retry-After, in seconds); null once there is nothing left to
 *        wait for
 * @param opensAt epoch milliseconds the sale opens, when the queue has an opening time; otherwise null
 * @param admission when AVAILABLE, the admission: a JWS (ES256) with sub (the user id), product, exp (= expiresAt),
 *        jti (the token) and the key's kid, which a shop verifies with {@code /.well-known/jwks.json} alone;
 *        otherwise null
 */
record EntryStatusResponse(String token, long productId, TokenStatus status, Long position, Long etaSeconds,
        Long etaMaxSeconds, Long expiresAt, Long pollAfterMs, Long opensAt, String admission) {
}
