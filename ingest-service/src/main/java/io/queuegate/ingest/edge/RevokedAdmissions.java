package io.queuegate.ingest.edge;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.queuegate.core.queue.Keyspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The admissions the operator revoked ({@code revoked:{p}}, written by {@code leave_place.lua}), held in memory per
 * product and read again every {@code queuegate.edge.revoked-refresh} for the products the edge checked in the last
 * minute: the check answers from memory, and a revoke is honoured within that period and a Redis round trip. A copy
 * older than {@link #FRESH} (a product not checked lately, or Redis not answering the refresh) is not trusted: the
 * check then reads Redis itself, off the event loop, and fails (so the proxy's fail-open or fail-closed applies) when
 * Redis cannot be read.
 *
 * <p>Why a copy of the set and not a look-up per check: revokes are few (an operator's hand), so the set is small, and a
 * check that reads nothing from Redis is what lets one ingest answer a proxy's every protected request.
 */
@Component
class RevokedAdmissions implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RevokedAdmissions.class);

    /** The oldest copy a check trusts: the 1 s within which a revoke must be honoured. */
    static final Duration FRESH = Duration.ofSeconds(1);

    /** A product not checked for this long is no longer read again. */
    private static final long IDLE_NANOS = Duration.ofMinutes(1).toNanos();

    private final StringRedisTemplate redis;

    private final Keyspace keyspace;

    private final Map<Long, Copy> copies = new ConcurrentHashMap<>();

    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("edge-revoked").daemon().factory());

    RevokedAdmissions(StringRedisTemplate redis, Keyspace keyspace, EdgeProperties properties) {
        this.redis = redis;
        this.keyspace = keyspace;
        long period = properties.revokedRefresh().toMillis();
        this.refresher.scheduleWithFixedDelay(this::refresh, period, period, TimeUnit.MILLISECONDS);
    }

    /** Whether the operator revoked this user's admission; read from Redis when the copy is not fresh. */
    Mono<Boolean> isRevoked(long productId, String userId) {
        Copy copy = this.copies.get(productId);
        long now = System.nanoTime();
        if (copy != null && now - copy.readAt <= FRESH.toNanos()) {
            copy.askedAt = now;
            return Mono.just(copy.users.contains(userId));
        }
        return Mono.fromCallable(() -> read(productId).users.contains(userId))
            .subscribeOn(Schedulers.boundedElastic());
    }

    private Copy read(long productId) {
        long readAt = System.nanoTime();
        Set<String> users = this.redis.opsForZSet().rangeByScore(this.keyspace.product(productId).revoked(),
                System.currentTimeMillis(), Double.POSITIVE_INFINITY);
        Copy copy = new Copy(users == null ? Set.of() : Set.copyOf(users), readAt);
        this.copies.merge(productId, copy, (old, fresh) -> {
            fresh.askedAt = Math.max(old.askedAt, readAt);
            return fresh.readAt >= old.readAt ? fresh : old;
        });
        return copy;
    }

    private void refresh() {
        long now = System.nanoTime();
        for (Map.Entry<Long, Copy> product : this.copies.entrySet()) {
            if (now - product.getValue().askedAt > IDLE_NANOS) {
                this.copies.remove(product.getKey(), product.getValue());
                continue;
            }
            try {
                read(product.getKey());
            }
            catch (RuntimeException ex) {
                // the copy ages past FRESH, and checks read Redis themselves
                log.debug("Revoked admissions of product {} not read: {}", product.getKey(), ex.toString());
            }
        }
    }

    @Override
    public void destroy() {
        this.refresher.shutdownNow();
    }

    private static final class Copy {

        final Set<String> users;

        final long readAt;

        volatile long askedAt;

        Copy(Set<String> users, long readAt) {
            this.users = users;
            this.readAt = readAt;
            this.askedAt = readAt;
        }
    }
}
