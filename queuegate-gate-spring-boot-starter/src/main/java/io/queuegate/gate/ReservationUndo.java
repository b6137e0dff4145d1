package io.queuegate.gate;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;

/**
 * Undoes, once Redis answers, a reservation whose outcome a failed call left unknown. A timeout does not mean the
 * script did not run: Redis may run it once it answers again, after the caller was told to retry. The chase lives in
 * this process only; should it die first, the admission worker's sweeper releases the reservation once it is older
 * than the publish timeout and a margin, its booking being nowhere in the bookings topic.
 */
class ReservationUndo {

    /** How long an unknown outcome is chased before it is left to an operator (logged). */
    private static final Duration PATIENCE = Duration.ofMinutes(10);

    private static final Logger log = LoggerFactory.getLogger(ReservationUndo.class);

    private final ReservationScripts scripts;

    ReservationUndo(ReservationScripts scripts) {
        this.scripts = scripts;
    }

    /**
     * Starts chasing the reservation in the background. Commands on the shared connection are answered in order,
     * so when the lookup answers, a queued reservation script has run.
     */
    void undoWhenReachable(long productId, String bookingId, String userId, String token, int quantity) {
        Thread.ofVirtual().name("gate-undo-" + bookingId).start(() -> {
            long pauseMs = 200;
            for (long deadline = System.nanoTime() + PATIENCE.toNanos(); System.nanoTime() < deadline; ) {
                try {
                    Long expiresAt = this.scripts.reservedUntil(productId, bookingId);
                    if (expiresAt != null) {
                        this.scripts.release(new Reservation(bookingId, productId, userId, quantity, token,
                                expiresAt, 0));
                        log.info("undid reservation {} whose caller was told to retry", bookingId);
                    }
                    return;
                }
                catch (DataAccessException ex) {
                    try {
                        Thread.sleep(pauseMs);
                    }
                    catch (InterruptedException interrupted) {
                        return;
                    }
                    // at most 1 s: the caller was told to retry after about that long, and a retry that comes
                    // before the undo finds the token consumed (403); a 5 s cap lost that race in the fault runs
                    pauseMs = Math.min(1_000, pauseMs * 2);
                }
            }
            log.error("reservation {} of product {} may stand unconfirmed: Redis did not answer for {}; the admission "
                    + "worker's sweeper releases it", bookingId, productId, PATIENCE);
        });
    }
}
