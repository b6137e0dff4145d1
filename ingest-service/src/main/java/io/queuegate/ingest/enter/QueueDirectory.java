package io.queuegate.ingest.enter;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.ingest.IngestProperties;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Whether a queue exists and is open, read from Redis at most once per {@code queueCacheTtl} per product.
 * A stale answer is served while it is re-read, so a slow or briefly absent Redis does not stall enters
 * for queues ingest already knows: the log, not Redis, absorbs the burst.
 */
@Component
class QueueDirectory {

    enum Availability { UNKNOWN, CLOSED, OPEN }

    /** How long a known answer may still be served while Redis cannot be read. */
    private static final Duration STALE_LIMIT = Duration.ofMinutes(5);

    private final LoadingCache<Long, Availability> cache;

    QueueDirectory(QueueStore store, IngestProperties properties) {
        this.cache = Caffeine.newBuilder()
            .maximumSize(100_000)
            .refreshAfterWrite(properties.queueCacheTtl())
            .expireAfterWrite(STALE_LIMIT)
            .build(new CacheLoader<Long, Availability>() {

                @Override
                public Availability load(Long productId) {
                    return store.findSettings(productId)
                        .map(settings -> settings.open() ? Availability.OPEN : Availability.CLOSED)
                        .orElse(Availability.UNKNOWN);
                }

                /**
                 * A known queue does not become unknown on a re-read: queues are never deleted through the API, so
                 * settings that vanish mean a Redis that lost them, and they come back from the log while the enters
                 * go on being accepted into it.
                 */
                @Override
                public Availability reload(Long productId, Availability old) {
                    Availability now = load(productId);
                    return now == Availability.UNKNOWN ? old : now;
                }
            });
    }

    /** Whether the queue's state is in memory, so that {@link #requireOpen} answers without reading Redis. */
    boolean knows(long productId) {
        return this.cache.getIfPresent(productId) != null;
    }

    /** Throws the problem a client should see unless the queue takes new entries. */
    void requireOpen(long productId) {
        switch (this.cache.get(productId)) {
            case UNKNOWN -> throw new ApiException(HttpStatus.NOT_FOUND, ProblemCodes.QUEUE_NOT_FOUND,
                    "No queue is configured for product " + productId + ".");
            case CLOSED -> throw new ApiException(HttpStatus.CONFLICT, ProblemCodes.QUEUE_CLOSED,
                    "The queue for product " + productId + " is closed.");
            case OPEN -> { }
        }
    }
}
