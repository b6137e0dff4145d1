package io.queuegate.core.event;

import io.queuegate.core.queue.QueueSettings;

/**
 * A queue was created or changed; published to {@link Topics#SALE} (key {@code queue:<p>}) before it is stored in
 * Redis and acknowledged, so a Redis that lost it gets it back. New fields may be added; none is removed or renamed.
 */
public record QueueConfigured(long productId, QueueSettings settings) {

    public static String key(long productId) {
        return "queue:" + productId;
    }
}
