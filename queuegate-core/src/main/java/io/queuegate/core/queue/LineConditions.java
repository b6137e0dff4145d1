package io.queuegate.core.queue;

/**
 * What a status poll needs to know about the whole line, read in the same step as the user's place.
 *
 * @param pace admissions per second to estimate waits with: the measured pace, or {@code admitPerSecond} before
 *        there is history (whichever is lower); 0 when the queue is unknown
 * @param maxPollsPerSecond the queue's poll budget, 0 when unset
 * @param waiting the length of the line when polls are budgeted, otherwise 0 (not counted)
 * @param abandonAfterSeconds how long a waiting user may go without polling, 0 when unset
 * @param opensAt epoch milliseconds the sale opens, 0 when unset
 */
public record LineConditions(double pace, int maxPollsPerSecond, long waiting, int abandonAfterSeconds,
        long opensAt) {

    /** Conditions of a line without an opening time. */
    public LineConditions(double pace, int maxPollsPerSecond, long waiting, int abandonAfterSeconds) {
        this(pace, maxPollsPerSecond, waiting, abandonAfterSeconds, 0);
    }

    /** A line moving at its configured rate, with neither a poll budget nor abandonment. */
    public static LineConditions ofRate(int admitPerSecond) {
        return new LineConditions(admitPerSecond, 0, 0, 0, 0);
    }
}
