package io.queuegate.core.queue;

/**
 * A token's status read in one round trip.
 *
 * @param status where the token stands
 * @param position 1-based place in the line when {@link TokenStatus#WAITING}, otherwise 0; also 0 while waiting for
 *        the sale to open (the order is drawn then)
 * @param expiresAt epoch milliseconds the admission ends when {@link TokenStatus#AVAILABLE}, or when
 *        {@link TokenStatus#SOLD_OUT} while holding an admission (kept until then, should stock return); otherwise 0
 * @param sinceLastPollMs how long ago the same waiting user polled before, -1 when unknown or not tracked (the
 *        queue has neither a poll budget nor abandonment)
 * @param line the line's pace and poll settings, for an estimate of the wait and when to poll next
 */
public record TokenState(TokenStatus status, long position, long expiresAt, long sinceLastPollMs,
        LineConditions line) {

    /** A state in a line moving at its configured rate, with neither a poll budget nor abandonment. */
    public TokenState(TokenStatus status, long position, long expiresAt, int admitPerSecond) {
        this(status, position, expiresAt, -1, LineConditions.ofRate(admitPerSecond));
    }

    /** Admissions per second to estimate the wait with. */
    public double pace() {
        return this.line.pace();
    }
}
