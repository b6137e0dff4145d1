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
 * @param paceFloor the least the line moves at by its settings: {@code maxActive ÷ entryTtlSeconds} (each place is
 *        held at most that long), at most {@code admitPerSecond}; 0 when unknown
 * @param paceMeasured whether {@code pace} is measured; before, it is {@code admitPerSecond}, the most the line can
 *        move at, and the wait lies between {@code position ÷ pace} and {@code position ÷ paceFloor}
 * @param headStart how many the next admission step may admit at once (the rate bucket's tokens, within the places
 *        free): the head of the line that many long is admitted at the next step, and everyone behind it that much
 *        sooner than the pace alone says
 * @param paceCeiling the most the line can move at: {@code admitPerSecond}, besides the rate bucket's second's worth
 *        at once; so a place is admitted no sooner than {@code position ÷ paceCeiling - 1} seconds from now, whatever
 *        frees places meanwhile
 */
public record LineConditions(double pace, int maxPollsPerSecond, long waiting, int abandonAfterSeconds,
        long opensAt, double paceFloor, boolean paceMeasured, long headStart, double paceCeiling) {

    /** Conditions of a line whose pace is known (measured, or bound by the rate alone), with no head start. */
    public LineConditions(double pace, int maxPollsPerSecond, long waiting, int abandonAfterSeconds, long opensAt) {
        this(pace, maxPollsPerSecond, waiting, abandonAfterSeconds, opensAt, pace, true, 0, pace);
    }

    /** Conditions of a line without an opening time, whose pace is known. */
    public LineConditions(double pace, int maxPollsPerSecond, long waiting, int abandonAfterSeconds) {
        this(pace, maxPollsPerSecond, waiting, abandonAfterSeconds, 0);
    }

    /** A line moving at its configured rate, with neither a poll budget nor abandonment. */
    public static LineConditions ofRate(int admitPerSecond) {
        return new LineConditions(admitPerSecond, 0, 0, 0, 0);
    }

    /**
     * The slowest pace the line may move at: the measured pace once there is one, otherwise what the settings bound
     * (never above {@link #pace}).
     */
    public double slowestPace() {
        return this.paceMeasured ? this.pace : Math.min(this.pace, this.paceFloor);
    }
}
