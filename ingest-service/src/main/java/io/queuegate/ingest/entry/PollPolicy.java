package io.queuegate.ingest.entry;

import io.queuegate.core.queue.EntryState;

/**
 * How long a client should wait before its next poll, and how long its wait should take. Far-back users
 * poll rarely and users near the head often, so the poll load stays proportional to movement, not to the
 * size of the crowd.
 */
final class PollPolicy {

    static final long MIN_POLL_MS = 1_000;
    static final long MAX_POLL_MS = 30_000;
    static final long PENDING_POLL_MS = 1_000;

    private PollPolicy() {
    }

    /** Seconds until admission at the queue's admission rate, rounded up; null when it has no rate. */
    static Long etaSeconds(EntryState state) {
        if (state.admitPerSecond() <= 0) {
            return null;
        }
        return (state.position() + state.admitPerSecond() - 1) / state.admitPerSecond();
    }

    static Long pollAfterMs(EntryState state, long nowMillis) {
        return switch (state.status()) {
            case PENDING -> PENDING_POLL_MS;
            case WAITING -> {
                Long eta = etaSeconds(state);
                yield eta == null ? MAX_POLL_MS : clamp(eta * 1000 / 4);
            }
            case AVAILABLE -> clamp((state.expiresAt() - nowMillis) / 2);
            case EXPIRED -> null;
        };
    }

    private static long clamp(long millis) {
        return Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, millis));
    }
}
