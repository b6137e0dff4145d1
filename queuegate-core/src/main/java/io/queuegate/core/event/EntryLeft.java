package io.queuegate.core.event;

/**
 * A user left a product's line (or gave up an entry); published to the leaves topic, keyed by product, before the
 * place is removed and the leave acknowledged, so that a Redis that loses the leave does not bring the user back.
 * New fields may be added; none is removed or renamed.
 *
 * @param userId the user who left (the one the verified token names)
 * @param leftAt epoch milliseconds, by the publishing host's clock (informational: nothing is ordered by it)
 */
public record EntryLeft(long productId, String userId, long leftAt) {
}
