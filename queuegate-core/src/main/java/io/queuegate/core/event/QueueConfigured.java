package io.queuegate.core.event;

import io.queuegate.core.queue.QueueSettings;

/**
 * A queue was created, changed or deleted; published to {@link Topics#SALE} (key {@code queue:<p>}) before it is
 * stored in Redis and acknowledged, so a Redis that lost it gets it back. New fields may be added; none is removed or
 * renamed.
 *
 * @param settings the settings; a deleted queue's last ones, closed
 * @param deletedAt epoch milliseconds the queue was deleted; null while it exists. Not a tombstone: the line's enter
 *     events stay in the log, and a restore must know to tell them EXPIRED rather than place them
 */
public record QueueConfigured(long productId, QueueSettings settings, Long deletedAt) {

    public QueueConfigured(long productId, QueueSettings settings) {
        this(productId, settings, null);
    }

    public static String key(long productId) {
        return "queue:" + productId;
    }
}
