package io.queuegate.core.queue;

/**
 * A token's status read in one round trip.
 *
 * @param status where the token stands
 * @param position 1-based place in the line when {@link EntryStatus#WAITING}, otherwise 0
 * @param expiresAt epoch milliseconds when {@link EntryStatus#AVAILABLE}, otherwise 0
 * @param admitPerSecond the queue's admission rate, for an estimate of the wait
 */
public record EntryState(EntryStatus status, long position, long expiresAt, int admitPerSecond) {
}
