package io.queuegate.core.queue;

import java.util.List;

/**
 * Every Redis key of one product, built in one place. Each carries the product's hash tag
 * ({@code {42}}), so all of them live in one Redis Cluster slot and one Lua script may touch them together.
 */
public record QueueKeys(long productId) {

    /** The set of configured product ids. Read on its own, never inside a product's script. */
    public static final String REGISTRY = "queuegate:queues";

    public static QueueKeys of(long productId) {
        return new QueueKeys(productId);
    }

    private String tagged(String prefix) {
        return prefix + ":{" + this.productId + "}";
    }

    /** ZSet of waiting tokens scored by arrival sequence (log order). */
    public String waiting() {
        return tagged("waiting");
    }

    /** ZSet of admitted tokens scored by expiry, epoch milliseconds. */
    public String entry() {
        return tagged("entry");
    }

    /** Hash of every token whose enter event was applied (or that left before it was): token → sequence. */
    public String members() {
        return tagged("members");
    }

    /** Hash of the queue's settings. */
    public String settings() {
        return tagged("queue");
    }

    /** Hash of counters and the admission rate bucket. */
    public String stats() {
        return tagged("stats");
    }

    /** Units left to sell. */
    public String stock() {
        return tagged("stock");
    }

    /** Hash of bookings: booking id → JSON. */
    public String bookings() {
        return tagged("bookings");
    }

    /** Hash of reservations not yet confirmed durable: booking id → the consumed entry's expiry. */
    public String reservations() {
        return tagged("reservations");
    }

    /** Stream of the line's state changes, relayed to Kafka and trimmed by the audit relay. */
    public String audit() {
        return tagged("audit");
    }

    /** Lease of the worker relaying this product's audit stream. */
    public String auditLease() {
        return tagged("audit-lease");
    }

    public List<String> all() {
        return List.of(waiting(), entry(), members(), settings(), stats(), stock(), bookings(), reservations(), audit(),
                auditLease());
    }
}
