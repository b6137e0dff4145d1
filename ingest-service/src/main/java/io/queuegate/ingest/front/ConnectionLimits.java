package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * Caps on the connections one ingest holds: in all, and from one client address. A connection past a cap is still
 * read, so that a probe on it is answered ({@code /livez}, {@code /readyz}: an orchestrator must not restart a
 * healthy instance because strangers hold its sockets), but any other request on it is answered 503 with
 * {@code Retry-After} and the connection closed. The header deadline bounds how long such a connection is read.
 *
 * <p>A trusted proxy ({@code queuegate.ingest.trusted-proxies}) carries many clients on its connections, so
 * the cap per address does not apply to it; the cap on all connections does. No other address is exempt, whatever a
 * request says of where it came from ({@code Forwarded}, {@code X-Forwarded-For}): those headers are never read.
 *
 * <p>A client is an address as {@link ClientAddresses} keys it for the limits per client: an IPv4 address, or an IPv6
 * address's /64, which one host is usually given whole. Memory is bounded by the cap: a client is counted only while
 * it has a connection open.
 */
final class ConnectionLimits {

    private static final AttributeKey<Boolean> EXCESS = AttributeKey.valueOf("queuegate.excessConnection");

    private final int maxConnections;

    private final int maxPerClient;

    private final AtomicInteger open = new AtomicInteger();

    private final ClientAddresses clients;

    private final ConcurrentHashMap<InetAddress, AtomicInteger> perClient = new ConcurrentHashMap<>();

    ConnectionLimits(int maxConnections, int maxPerClient, ClientAddresses clients) {
        this.maxConnections = maxConnections;
        this.maxPerClient = maxPerClient;
        this.clients = clients;
    }

    /** Counts a new connection, marks it when it is past a cap, and uncounts it when it closes. */
    void opened(Channel channel) {
        // counted by the same key as the limits per client (an IPv6 client by its /64), or one /64 could take them all
        InetAddress client = channel.remoteAddress() instanceof InetSocketAddress address
                && !this.clients.isTrustedProxy(address.getAddress()) ? ClientAddresses.keyOf(address.getAddress())
                        : null;
        int all = this.open.incrementAndGet();
        // counted inside the map's own update of the address, so that a close removing it at once is never missed
        int fromClient = client == null ? 0 : this.perClient.compute(client, (key, count) -> {
            AtomicInteger counted = count == null ? new AtomicInteger() : count;
            counted.incrementAndGet();
            return counted;
        }).get();
        if (all > this.maxConnections || fromClient > this.maxPerClient) {
            channel.attr(EXCESS).set(Boolean.TRUE);
        }
        channel.closeFuture().addListener((closed) -> {
            this.open.decrementAndGet();
            if (client != null) {
                this.perClient.computeIfPresent(client, (key, count) -> count.decrementAndGet() <= 0 ? null : count);
            }
        });
    }

    /** Whether this connection came when a cap was reached. */
    static boolean excess(Channel channel) {
        return Boolean.TRUE.equals(channel.attr(EXCESS).get());
    }
}
