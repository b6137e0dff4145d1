package io.queuegate.ingest.status;

import java.time.Duration;

import io.queuegate.core.queue.Keyspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
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

    private static final Logger log = LoggerFactory.getLogger(AdmissionNews.class);

    private static final Duration FIRST_RETRY = Duration.ofMillis(500);

    private static final Duration LONGEST_RETRY = Duration.ofSeconds(10);

    private final ReactiveRedisConnectionFactory redis;

    private final ChannelTopic channel;

    private final LineFeeds feeds;

    private volatile Disposable listening;

    AdmissionNews(ReactiveRedisConnectionFactory redis, Keyspace keyspace, LineFeeds feeds) {
        this.redis = redis;
        this.channel = ChannelTopic.of(keyspace.admissionsChannel());
        this.feeds = feeds;
    }

    @Override
    public void start() {
        this.listening = Flux
            .usingWhen(Mono.fromCallable(() -> new ReactiveRedisMessageListenerContainer(this.redis)),
                    (container) -> container.receive(this.channel),
                    ReactiveRedisMessageListenerContainer::destroyLater)
            .retryWhen(Retry.backoff(Long.MAX_VALUE, FIRST_RETRY)
                .maxBackoff(LONGEST_RETRY)
                .doBeforeRetry((failure) -> log.warn("Listening for admissions failed, listening again: {}",
                        failure.failure().toString())))
            .subscribe((message) -> heard(message.getMessage()));
    }

    private void heard(String productId) {
        try {
            this.feeds.admitted(Long.parseLong(productId));
        }
        catch (NumberFormatException ex) {
            log.debug("ignored a message on the admissions channel that names no product: {}", productId);
        }
    }

    @Override
    public void stop() {
        Disposable listening = this.listening;
        if (listening != null) {
            listening.dispose();
        }
        this.listening = null;
    }

    @Override
    public boolean isRunning() {
        return this.listening != null;
    }
}
