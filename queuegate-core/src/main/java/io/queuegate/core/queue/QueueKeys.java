package io.queuegate.core.queue;

import java.util.List;

/**
 * Every Redis key of one product, built in one place. Each carries the product's hash tag
 * ({@code {42}}), so all of them live in one Redis Cluster slot and one Lua script may touch them together.
 * Each also starts with the deployment's key prefix ({@link Keyspace}), which has no braces of its own, so the
 * tag is still the first {@code {...}} of the name and picks the slot: {@code tenantA:waiting:{42}}.
 *
 * @param prefix the deployment's key prefix ({@code queuegate.redis.key-prefix}), empty by default
 */
public record QueueKeys(String prefix, long productId) {

    /**
     * The default name of the set of configured product ids ({@link RegistryProperties}), before the key prefix
     * ({@link Keyspace#registry(String)}). Read on its own, never inside a product's script.
     */
    public static final String REGISTRY = "queuegate:queues";

    /**
     * A random id the line writers give this Redis's lines the first time they find it missing. The writers commit
     * it with their Kafka offsets; a Redis whose id is missing or another one has lost what those offsets say was
     * applied, and its lines are rebuilt from the log. Read on its own, never inside a product's script. Its name
     * in the default keyspace; {@link Keyspace#lineEpoch()} puts the prefix before it.
     */
    public static final String LINE_EPOCH = "queuegate:line-epoch";

    public QueueKeys {
        Keyspace.requireUsablePrefix(prefix);
    }

    /** The keys of a product in the default keyspace (no prefix). */
    public static QueueKeys of(long productId) {
        return new QueueKeys("", productId);
    }

    public static QueueKeys of(String prefix, long productId) {
        return new QueueKeys(prefix, productId);
    }

    private String tagged(String name) {
        return this.prefix + name + ":{" + this.productId + "}";
    }

    /**
     * ZSet of waiting users scored by arrival sequence (log order). Every set of the line holds user ids, not
     * tokens: a token is a function of the product and the user, so the user id is the place, and it is the
     * shortest member that names it.
     */
    public String waiting() {
        return tagged("waiting");
    }

    /** ZSet of admitted users scored by expiry, epoch milliseconds. */
    public String entry() {
        return tagged("entry");
    }

    /**
     * Set of users whose place is gone: left (even before their enter event was applied), expired or used. With
     * waiting and entry it tells a user the line has placed from one it has not seen yet (PENDING), and keeps a
     * late or repeated enter event from bringing anyone back.
     */
    public String gone() {
        return tagged("gone");
    }

    /**
     * ZSet of waiting users scored by the time they last polled (epoch ms), kept only while the queue has
     * {@code abandonAfterSeconds} or {@code maxPollsPerSecond}: the admission tick takes the abandoned ones from its
     * low end, and a poll finds how long ago the same user polled.
     */
    public String seen() {
        return tagged("seen");
    }

    /**
     * Set of users the operator holds: they keep their place in waiting and read WAITING with their position, and
     * the admission step passes over them until they are released.
     */
    public String held() {
        return tagged("held");
    }

    /**
     * ZSet of users whose admission the operator revoked, scored by the revoked admission's expiry (epoch ms), kept
     * until then: an admission is a signed JWS that stays valid until it expires, so whoever checks it without Redis
     * (the edge check, {@code io.queuegate.ingest.edge}) must also learn of a revoke. Trimmed of past expiries by every
     * revoke; at most the entries there were.
     */
    public String revoked() {
        return tagged("revoked");
    }

    /** Hash of the queue's settings. */
    public String settings() {
        return tagged("queue");
    }

    /**
     * Hash of counters, the admission rate bucket, the measured pace of admission ({@code pace}, and what it is
     * computed from), the line's sequence, the fair start's state ({@code earlySeq}, then {@code seed},
     * {@code openedFor}, {@code openedAt}), per log partition, the last offset the line applied
     * ({@code applied:<topic>:<partition>}), the units booked ({@code bookedUnits}, which a stock setting is published
     * with) and the lines' epoch the sale was last restored for ({@code restoredFor}).
     */
    public String stats() {
        return tagged("stats");
    }

    /** Units left to sell. When set and at most 0, the line is sold out: nobody is admitted, waiting users see it. */
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

    /**
     * ZSet of the same reservations, booking id → when it was made (epoch ms, by the gate script's clock): the admission
     * worker's sweeper reads the oldest, and settles those older than the publish timeout and a margin whose booking
     * service never confirmed them (it was killed between the reservation and its publish, say).
     */
    public String reservedAt() {
        return tagged("reserved-at");
    }

    /** Stream of the line's state changes, relayed to Kafka and trimmed by the audit relay. */
    public String audit() {
        return tagged("audit");
    }

    /** Lease of the worker relaying this product's audit stream. */
    public String auditLease() {
        return tagged("audit-lease");
    }

    /** Lease of the worker settling this product's stranded reservations. */
    public String reservationLease() {
        return tagged("reservation-lease");
    }

    /**
     * Lease of the worker that runs this product's admission steps: its id, expiring unless the holder renews it.
     * {@code admit_batch.lua} checks and renews it in the step itself, so a worker that lost it admits nothing.
     */
    public String admissionLease() {
        return tagged("admission-lease");
    }

    public List<String> all() {
        return List.of(waiting(), entry(), gone(), seen(), held(), settings(), stats(), stock(), bookings(),
                reservations(), reservedAt(), audit(), auditLease(), reservationLease(), admissionLease(),
                revoked());
    }
}
