package io.queuegate.ingest.status;

import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.LineConditions;
import io.queuegate.core.queue.TokenStatus;

/**
 * How long a client should wait before its next poll, and how long its wait should take. Far-back users
 * poll rarely and users near the head often, so the poll load stays proportional to movement, not to the
 * size of the crowd.
 *
 * <p>With a poll budget ({@code maxPollsPerSecond} = M) the wait before the next poll is also at least
 * {@code position × H(W) / M} seconds, where W is the length of the line and H(W) = 1 + 1/2 + … + 1/W. Everyone
 * waiting, polling as told, then polls at most Σ M / (p × H(W)) = M times per second over p = 1..W, and the wait still
 * grows with position. H(W) is taken as ln W + γ + 1/(2W), which is never below it.
 *
 * <p>With abandonment, no waiting user is told to wait more than a third of {@code abandonAfterSeconds}: polling as
 * told must never lose a place. That cap wins over the budget, so a line longer than the budget can carry at that
 * interval polls more than M times per second.
 */
final class PollPolicy {

    static final long MIN_POLL_MS = 1_000;
    static final long MAX_POLL_MS = 30_000;
    static final long PENDING_POLL_MS = 1_000;
    static final long SOLD_OUT_POLL_MS = 30_000;

    /**
     * An admitted place is read at least this often: other people's bookings can sell the product out under it, and
     * its page must stop offering a Book button the counter can only refuse (and offer it again when stock returns
     * within the admission). Admitted places are at most maxActive a product, so this is a small share of the reads.
     */
    static final long ADMITTED_MAX_POLL_MS = 5_000;

    /** A poll sooner than this share of the interval it was told is refused (429): far faster than told. */
    static final int TOO_SOON_DIVISOR = 4;

    private static final double EULER_GAMMA = 0.5772156649015329;

    private PollPolicy() {
    }

    /**
     * Seconds until admission at the line's pace, rounded up; null when it has no pace. Before the pace is measured
     * this is the shortest the wait can be (the line moving at admitPerSecond), and {@link #etaMaxSeconds} the
     * longest.
     */
    static Long etaSeconds(TokenState state) {
        if (state.pace() <= 0 || state.position() <= 0) {
            return null;
        }
        long behindHeadStart = Math.max(0, state.position() - state.line().headStart());
        return (long) Math.ceil(behindHeadStart / state.pace());
    }

    /**
     * The longest the wait can be while the pace is not measured yet, when the settings leave a range: places held up
     * to entryTtlSeconds move the line at least maxActive ÷ entryTtlSeconds a second. Null once the pace is measured,
     * or when the settings bind it to one figure (a line limited by its rate alone): {@link #etaSeconds} is then the
     * estimate. Null too when the floor is unknown (0): the range is open, and the page says so in words.
     */
    static Long etaMaxSeconds(TokenState state) {
        Long eta = etaSeconds(state);
        double slowest = state.line().slowestPace();
        if (eta == null || state.line().paceMeasured() || slowest >= state.pace()) {
            return null;
        }
        return slowest <= 0 ? null : Math.max(eta, (long) Math.ceil(state.position() / slowest));
    }

    static Long pollAfterMs(TokenState state, long nowMillis) {
        return switch (state.status()) {
            case PENDING -> PENDING_POLL_MS;
            case WAITING -> state.position() > 0
                    ? capForAbandonment(Math.max(byEta(state), budgeted(state)), state.line())
                    : capForAbandonment(beforeOpening(state, nowMillis), state.line());
            case SOLD_OUT -> state.expiresAt() > 0 ? admitted(state, nowMillis)
                    : capForAbandonment(SOLD_OUT_POLL_MS, state.line());
            case AVAILABLE -> admitted(state, nowMillis);
            case EXPIRED -> null;
        };
    }

    /**
     * When a stream reads its place again: as a poll would be told, but a waiting place is read again within half
     * the least time it can take to be admitted, and as often as every step near the front, so that the read that
     * finds it admitted comes within a step of the admission rather than within a poll's second. The least time is
     * set by the settings, not by the measured pace, which a line that stood still reads as slow just before it
     * moves: at most {@code admitPerSecond} a second are admitted, and a second's worth at once
     * ({@link LineConditions#paceCeiling}). The poll budget still holds: a place is not read sooner than it allows.
     */
    static Long streamReadAfterMs(TokenState state, long nowMillis, long stepMillis) {
        double ceiling = state.line().paceCeiling();
        if (state.status() != TokenStatus.WAITING || state.position() <= 0 || ceiling <= 0) {
            return pollAfterMs(state, nowMillis);
        }
        long soonestAdmission = (long) (Math.max(0, state.position() / ceiling - 1) * 1000);
        long next = Math.max(Math.max(stepMillis, budgeted(state)), Math.min(MAX_POLL_MS, soonestAdmission / 2));
        return capForAbandonment(next, state.line());
    }

    /**
     * Whether a waiting user polled far sooner than told: only under a poll budget, and only when the user's previous
     * poll is known.
     */
    static boolean tooSoon(TokenState state, long pollAfterMs) {
        return state.line().maxPollsPerSecond() > 0 && state.sinceLastPollMs() >= 0
                && state.sinceLastPollMs() * TOO_SOON_DIVISOR < pollAfterMs;
    }

    /**
     * Before the sale opens nobody has a position yet: half the time left, within 1 s to 30 s, and under a budget
     * what the last of the line would be told, which everyone waiting can afford at once.
     */
    private static long beforeOpening(TokenState state, long nowMillis) {
        long untilOpening = clamp((state.line().opensAt() - nowMillis) / 2);
        long length = Math.max(1, state.line().waiting());
        return Math.max(untilOpening, budgeted(new TokenState(state.status(), length, 0, state.sinceLastPollMs(),
                state.line())));
    }

    /** Half the time the admission has left, within 1 s and {@link #ADMITTED_MAX_POLL_MS}. */
    private static long admitted(TokenState state, long nowMillis) {
        return Math.min(ADMITTED_MAX_POLL_MS, clamp((state.expiresAt() - nowMillis) / 2));
    }

    /** A quarter of the estimated wait, within 1 s to 30 s. */
    private static long byEta(TokenState state) {
        Long eta = etaSeconds(state);
        return eta == null ? MAX_POLL_MS : clamp(eta * 1000 / 4);
    }

    /** The wait before the next poll that keeps everyone waiting under the poll budget; 0 without one. */
    private static long budgeted(TokenState state) {
        LineConditions line = state.line();
        if (line.maxPollsPerSecond() <= 0) {
            return 0;
        }
        long length = Math.max(1, Math.max(line.waiting(), state.position()));
        double harmonic = Math.log(length) + EULER_GAMMA + 1.0 / (2 * length);
        return (long) Math.ceil(Math.max(1, state.position()) * harmonic * 1000 / line.maxPollsPerSecond());
    }

    private static long capForAbandonment(long millis, LineConditions line) {
        return line.abandonAfterSeconds() > 0 ? Math.min(millis, line.abandonAfterSeconds() * 1000L / 3) : millis;
    }

    private static long clamp(long millis) {
        return Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, millis));
    }
}
