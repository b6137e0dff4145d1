package io.queuegate.core.event;

/**
 * The operator holds a user of a product's line: published to {@link Topics#SALE} (key {@link #key}) before the hold
 * is stored in Redis and acknowledged, so a Redis that lost it gets it back. A release is a tombstone of the same key
 * (a null value), so the compacted topic keeps only the users held now. New fields may be added; none is removed or
 * renamed.
 *
 * @param userId the user held
 * @param heldAt epoch milliseconds, by the publishing host's clock (informational)
 */
public record UserHeld(long productId, String userId, long heldAt) {

    public static final String KEY_PREFIX = "held:";

    public static String key(long productId, String userId) {
        return KEY_PREFIX + productId + ":" + userId;
    }
}
