package io.queuegate.ingest;

import java.time.Duration;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;

/**
 * A subscription to a Redis channel whose messages each name a product (the admissions' news, the queues' changes).
 * Pub/sub keeps no message for a subscriber that was away, so a subscription that fails is made again after a
 * back-off, from the start of the service on (the service starts and serves while Redis is away), and the caller is
 * told each time it is made, to catch up on what it may have missed. On Redis Cluster a {@code PUBLISH} reaches the
 * subscribers of every node, so one subscription hears every product.
 */
public final class ProductChannel {

    private static final Logger log = LoggerFactory.getLogger(ProductChannel.class);

    private static final Duration FIRST_RETRY = Duration.ofMillis(500);

    private static final Duration LONGEST_RETRY = Duration.ofSeconds(10);

    private final ReactiveRedisConnectionFactory redis;

    private final ChannelTopic channel;

    private final String name;

    private final Runnable subscribed;

    private final LongConsumer heard;

    private volatile Disposable listening;

    /**
     * @param channel the channel
     * @param name what the channel carries, for the logs
     * @param subscribed called each time the subscription is made
     * @param heard called with each product a message names; a message that names none is ignored
     */
    public ProductChannel(ReactiveRedisConnectionFactory redis, String channel, String name, Runnable subscribed,
            LongConsumer heard) {
        this.redis = redis;
        this.channel = ChannelTopic.of(channel);
        this.name = name;
        this.subscribed = subscribed;
        this.heard = heard;
    }

    /** Listens until {@link #stop()}. */
    public void start() {
        this.listening = Flux
            .usingWhen(Mono.fromCallable(() -> new ReactiveRedisMessageListenerContainer(this.redis)),
                    (container) -> container.receiveLater(this.channel)
                        .doOnNext((ready) -> this.subscribed.run())
                        .flatMapMany((messages) -> messages),
                    ReactiveRedisMessageListenerContainer::destroyLater)
            .retryWhen(Retry.backoff(Long.MAX_VALUE, FIRST_RETRY)
                .maxBackoff(LONGEST_RETRY)
                .doBeforeRetry((failure) -> log.warn("Listening for {} failed, listening again: {}", this.name,
                        failure.failure().toString())))
            .subscribe((message) -> heard(message.getMessage()));
    }

    private void heard(String message) {
        try {
            this.heard.accept(Long.parseLong(message));
        }
        catch (NumberFormatException ex) {
            log.debug("ignored a message about {} that names no product: {}", this.name, message);
        }
    }

    public void stop() {
        Disposable listening = this.listening;
        if (listening != null) {
            listening.dispose();
        }
        this.listening = null;
    }

    public boolean isRunning() {
        return this.listening != null;
    }
}
