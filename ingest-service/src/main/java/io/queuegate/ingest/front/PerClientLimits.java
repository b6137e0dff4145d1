package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.local.SynchronizationStrategy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.ingest.EntriesPaths;

/**
 * A token bucket per client for enters and one for polls (Bucket4j), kept in a bounded cache (Caffeine): past
 * {@code maxClients} the least used clients are forgotten, and a client idle long enough for its buckets to have
 * refilled is forgotten too, which changes nothing for it. A client over its limit waits; its other kind of request
 * and every other client are unaffected.
 */
final class PerClientLimits {


    /** What a request costs: an enter, or a poll of a token's status (a challenge fetch counts as one). */
    enum Kind { ENTER, POLL }

    private final Bandwidth enters;

    private final Bandwidth polls;

    private final Cache<InetAddress, Allowance> clients;

    private final Counter enterRefusals;

    private final Counter pollRefusals;

    PerClientLimits(PerClientProperties properties, MeterRegistry metrics) {
        this.enters = Bandwidth.builder().capacity(properties.enterBurst())
            .refillGreedy(properties.entersPerMinute(), Duration.ofMinutes(1)).build();
        this.polls = Bandwidth.builder().capacity(properties.pollBurst())
            .refillGreedy(properties.pollsPerSecond(), Duration.ofSeconds(1)).build();
        // forgotten once both buckets would be full again: the same as never having been seen
        Duration refilled = Duration.ofMillis(Math.max(
                60_000L * properties.enterBurst() / properties.entersPerMinute(),
                1_000L * properties.pollBurst() / properties.pollsPerSecond()) + 1_000);
        this.clients = Caffeine.newBuilder().maximumSize(properties.maxClients()).expireAfterAccess(refilled).build();
        this.enterRefusals = metrics.counter("queuegate.per_client.refused", "kind", "enter");
        this.pollRefusals = metrics.counter("queuegate.per_client.refused", "kind", "poll");
        metrics.gaugeMapSize("queuegate.per_client.clients", List.of(), this.clients.asMap());
    }

    /** Null when the client may go on; else how long until it may make this kind of request again. */
    Duration refusal(Kind kind, InetAddress client) {
        Allowance allowance = this.clients.get(client, (key) -> new Allowance());
        Bucket bucket = kind == Kind.ENTER ? allowance.enters(this.enters) : allowance.polls(this.polls);
        if (bucket.tryConsume(1)) {
            return null;
        }
        (kind == Kind.ENTER ? this.enterRefusals : this.pollRefusals).increment();
        return Duration.ofNanos(bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill());
    }

    /** Clients remembered now (after the cache's pending evictions). */
    long clients() {
        this.clients.cleanUp();
        return this.clients.estimatedSize();
    }

    /**
     * The request's kind when it is limited: an enter ({@code POST /api/v1/queues/{p}/entries}), a poll
     * ({@code GET /api/v1/queues/{p}/entries/{token}}) or a challenge fetch ({@code GET /api/v1/queues/{p}/challenge});
     * null for everything else.
     */
    static Kind kindOf(String method, String path) {
        if (EntriesPaths.isEnter(method, path)) {
            return Kind.ENTER;
        }
        return EntriesPaths.isPoll(method, path) || EntriesPaths.isChallengeFetch(method, path) ? Kind.POLL : null;
    }

    /**
     * A bucket whose state is changed in place under the bucket's lock (one client's requests rarely contend), not
     * replaced by a new state object per request as Bucket4j's default lock-free buckets do: a cache of many clients
     * lives in the old generation, and a fresh object per request hung from it is work for every young collection.
     */
    private static Bucket bucket(Bandwidth bandwidth) {
        return Bucket.builder().addLimit(bandwidth).withMillisecondPrecision()
            .withSynchronizationStrategy(SynchronizationStrategy.SYNCHRONIZED).build();
    }

    /** A client's buckets, each made when the client first makes that kind of request. */
    private static final class Allowance {

        private volatile Bucket enters;

        private volatile Bucket polls;

        Bucket enters(Bandwidth bandwidth) {
            Bucket bucket = this.enters;
            if (bucket == null) {
                synchronized (this) {
                    bucket = this.enters;
                    if (bucket == null) {
                        bucket = bucket(bandwidth);
                        this.enters = bucket;
                    }
                }
            }
            return bucket;
        }

        Bucket polls(Bandwidth bandwidth) {
            Bucket bucket = this.polls;
            if (bucket == null) {
                synchronized (this) {
                    bucket = this.polls;
                    if (bucket == null) {
                        bucket = bucket(bandwidth);
                        this.polls = bucket;
                    }
                }
            }
            return bucket;
        }
    }
}
