package io.queuegate.ingest.edge;

import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.ingest.IngestProperties;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Component;

/**
 * The settings the edge reads of a queue (its return hosts), from Redis at most once per
 * {@code queuegate.ingest.queue-cache-ttl} per product, read off the event loop; the last known ones are served while
 * they are read again, and for five minutes while Redis cannot be read.
 */
@Component
class EdgeQueues {

    private static final Duration STALE_LIMIT = Duration.ofMinutes(5);

    private final AsyncLoadingCache<Long, Optional<QueueSettings>> cache;

    EdgeQueues(QueueStore store, IngestProperties properties) {
        this.cache = Caffeine.newBuilder()
            .maximumSize(100_000)
            .refreshAfterWrite(properties.queueCacheTtl())
            .expireAfterWrite(STALE_LIMIT)
            .executor((task) -> Schedulers.boundedElastic().schedule(task))
            .buildAsync(store::findSettings);
    }

    /** The queue's settings; empty when the product has no queue. */
    Mono<Optional<QueueSettings>> settings(long productId) {
        return Mono.fromFuture(this.cache.get(productId), true);
    }
}
