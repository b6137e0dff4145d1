package io.queuegate.ingest.enter;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.ingest.IngestProperties;
import io.queuegate.ingest.ProductChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Keeps the {@link QueueDirectory}'s copies of the queues' settings fresh without a Redis call per enter: listens on
 * {@link Keyspace#queueChangesChannel()}, where every write of a queue's settings is announced (a close, a deletion,
 * any change), and has the directory read that queue again at once; and has it read every known queue again every
 * {@code queuegate.ingest.queue-cache-ttl}, the safety net of the announcements.
 *
 * <p>Why both: pub/sub keeps no message for a subscriber that was away (a reconnection, a failover, a subscription
 * made again after a failure), so the announcement alone could leave a closed queue open here for good; the periodic
 * read alone would leave it open for up to its period after every change. Plain pub/sub, not keyspace notifications:
 * on Redis Cluster a {@code PUBLISH} reaches the subscribers of every node, while keyspace notifications are made only
 * on the node that holds the key, and need {@code notify-keyspace-events}, which managed Redis services often do not
 * let a client set. When the subscription is made (at start, and again after a failure), every known queue is read
 * again too, for what was announced meanwhile.
 */
@Component
class QueueChanges implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(QueueChanges.class);

    private final ProductChannel changes;

    private final QueueDirectory directory;

    private final Duration rereadEvery;

    private ScheduledExecutorService rereads;

    QueueChanges(ReactiveRedisConnectionFactory redis, Keyspace keyspace, QueueDirectory directory,
            IngestProperties properties) {
        this.changes = new ProductChannel(redis, keyspace.queueChangesChannel(), "queue changes",
                directory::refreshKnown, directory::changed);
        this.directory = directory;
        this.rereadEvery = properties.queueCacheTtl();
    }

    @Override
    public void start() {
        this.changes.start();
        this.rereads = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("queue-rereads").daemon().factory());
        long every = this.rereadEvery.toMillis();
        this.rereads.scheduleWithFixedDelay(this::rereadKnown, every, every, TimeUnit.MILLISECONDS);
    }

    /** Never lets a failure end the schedule: the reads themselves fail in the background, each on its own. */
    private void rereadKnown() {
        try {
            this.directory.refreshKnown();
        }
        catch (RuntimeException ex) {
            log.warn("Reading the known queues again failed: {}", ex.toString());
        }
    }

    @Override
    public void stop() {
        this.changes.stop();
        if (this.rereads != null) {
            this.rereads.shutdownNow();
            this.rereads = null;
        }
    }

    @Override
    public boolean isRunning() {
        return this.changes.isRunning();
    }
}
