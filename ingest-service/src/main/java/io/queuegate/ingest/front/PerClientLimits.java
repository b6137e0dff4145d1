package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A token bucket per client for enters and one for polls (Bucket4j), kept in a bounded cache (Caffeine): past
 * {@code maxClients} the least used clients are forgotten, and a client idle long enough for its buckets to have
 * refilled is forgotten too, which changes nothing for it. A client over its limit waits; its other kind of request
 * and every other client are unaffected.
 */
final class PerClientLimits {

    private static final String QUEUES = "/api/v1/queues/";

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
        Allowance allowance = this.clients.get(client, (key) -> new Allowance(bucket(this.enters), bucket(this.polls)));
        ConsumptionProbe probe = (kind == Kind.ENTER ? allowance.enters() : allowance.polls())
            .tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return null;
        }
        (kind == Kind.ENTER ? this.enterRefusals : this.pollRefusals).increment();
        return Duration.ofNanos(probe.getNanosToWaitForRefill());
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
        if (!path.startsWith(QUEUES)) {
            return null;
        }
        int slash = path.indexOf('/', QUEUES.length());
        if (slash < 0) {
            return null;
        }
        String rest = path.substring(slash);
        if (method.equals("POST") && rest.equals("/entries")) {
            return Kind.ENTER;
        }
        if (method.equals("GET") && (rest.equals("/challenge")
                || rest.startsWith("/entries/") && rest.indexOf('/', "/entries/".length()) < 0)) {
            return Kind.POLL;
        }
        return null;
    }

    private static Bucket bucket(Bandwidth bandwidth) {
        return Bucket.builder().addLimit(bandwidth).withMillisecondPrecision().build();
    }

    private record Allowance(Bucket enters, Bucket polls) {
    }
}
