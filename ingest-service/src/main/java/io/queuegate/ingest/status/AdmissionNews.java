package io.queuegate.ingest.status;


import io.queuegate.core.queue.Keyspace;
import io.queuegate.ingest.ProductChannel;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Listens on {@link Keyspace#admissionsChannel()}, where every admission step that admitted anyone publishes its
 * product, and has {@link LineFeeds} read that product's streams at once: an admission is told within a Redis read
 * of being made, instead of waiting up to a step for the next read.
 *
 * <p>The news only brings the read forward. Pub/sub keeps no message for a subscriber that was away, so a message lost
 * to a reconnection or a failover costs the admitted at most a step, which the streams' own schedule still reads. A
 * subscription that fails is made again after a back-off, from the start of the service on, so the service starts
 * and serves while Redis is away.
 */
@Component
class AdmissionNews implements SmartLifecycle {

    private final ProductChannel news;

    AdmissionNews(ReactiveRedisConnectionFactory redis, Keyspace keyspace, LineFeeds feeds) {
        // the news only brings a read forward: nothing to catch up on when the subscription is made
        this.news = new ProductChannel(redis, keyspace.admissionsChannel(), "admissions", () -> { }, feeds::admitted);
    }

    @Override
    public void start() {
        this.news.start();
    }

    @Override
    public void stop() {
        this.news.stop();
    }

    @Override
    public boolean isRunning() {
        return this.news.isRunning();
    }
}
