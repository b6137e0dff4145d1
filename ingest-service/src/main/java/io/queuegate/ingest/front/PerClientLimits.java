package io.queuegate.ingest.front;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A token bucket per client for enters and one for polls, in a table of fixed size allocated once: past
 * {@code maxClients} the client nearest to a full allowance is forgotten (which only gives it a full one), and a
 * client whose buckets have refilled is forgotten first, which changes nothing for it. A client over its limit waits;
 * its other kind of request and every other client are unaffected.
 *
 * <p>Why not a cache of Bucket4j buckets, as this was: a flood of distinct addresses is the case the limits exist
 * for, and there every request made a new entry of about 590 bytes that lived long enough to be promoted and then
 * died, work for every collection; the door with the limits on took 0.87 (0.75-0.96) of its rate without them
 * (docs/BENCHMARKS.md). Here a client is 24 bytes of one array, and a request allocates nothing.
 *
 * <p>Each bucket is one number, its theoretical arrival time (the generic cell rate algorithm, which is a token bucket
 * kept as a time): a request is taken while that time is at most the burst's tolerance ahead of now, and moves it one
 * interval on. A client is its IPv4 address, or its IPv6 address's /64 ({@link ClientAddresses} cuts it so). Clients
 * are spread over groups of eight slots by a hash keyed at random, so nobody can aim many addresses at one group to
 * push a client out.
 */
final class PerClientLimits {

    /**
     * What a request costs: an enter (a leave counts as one), or a poll of a token's status (a challenge fetch and an
     * event stream's opening count as one); {@link DoorRoute#allowance()} says which a request takes.
     */
    enum Kind { ENTER, POLL }

    /** Slots a client may sit in: a group of eight, found by hash and searched whole. */
    private static final int WAYS = 8;

    /** Longs a slot holds: the client, the enters' arrival time, the polls'. */
    private static final int SLOT = 3;

    private static final int ENTERS = 1;

    private static final int POLLS = 2;

    private static final int LOCKS = 256;

    private final Rate enters;

    private final Rate polls;

    /** The slots, {@link #SLOT} longs each; a client of 0 is an empty slot. */
    private final long[] slots;

    private final int groups;

    private final Object[] locks = new Object[LOCKS];

    private final long seed = new SecureRandom().nextLong();

    private final long origin = System.nanoTime();

    private final AtomicLong occupied = new AtomicLong();

    private final Counter enterRefusals;

    private final Counter pollRefusals;

    PerClientLimits(PerClientProperties properties, MeterRegistry metrics) {
        this.enters = Rate.of(properties.enterBurst(), Duration.ofMinutes(1).toNanos() / properties.entersPerMinute());
        this.polls = Rate.of(properties.pollBurst(), Duration.ofSeconds(1).toNanos() / properties.pollsPerSecond());
        this.groups = Math.max(1, properties.maxClients() / WAYS);
        this.slots = new long[this.groups * WAYS * SLOT];
        for (int i = 0; i < LOCKS; i++) {
            this.locks[i] = new Object();
        }
        this.enterRefusals = metrics.counter("queuegate.per_client.refused", "kind", "enter");
        this.pollRefusals = metrics.counter("queuegate.per_client.refused", "kind", "poll");
        metrics.gauge("queuegate.per_client.clients", this.occupied);
    }

    /** Null when the client may go on; else how long until it may make this kind of request again. */
    Duration refusal(Kind kind, InetAddress client) {
        long key = keyOf(client);
        int group = Math.floorMod(mix(key ^ this.seed), this.groups);
        int field = kind == Kind.ENTER ? ENTERS : POLLS;
        Rate rate = kind == Kind.ENTER ? this.enters : this.polls;
        long now = System.nanoTime() - this.origin;
        long wait;
        synchronized (this.locks[group % LOCKS]) {
            int slot = slotOf(group, key, now);
            int at = slot * SLOT + field;
            long arrival = Math.max(this.slots[at], now);
            wait = arrival - rate.tolerance() - now;
            if (wait <= 0) {
                this.slots[at] = arrival + rate.interval();
            }
        }
        if (wait <= 0) {
            return null;
        }
        (kind == Kind.ENTER ? this.enterRefusals : this.pollRefusals).increment();
        return Duration.ofNanos(wait);
    }

    /** Clients remembered now: at most {@code maxClients}. */
    long clients() {
        return this.occupied.get();
    }

    /**
     * The client's slot in its group, taken for it when it has none: an empty slot, else one whose buckets are full
     * again, else the one nearest to full. Called under the group's lock.
     */
    private int slotOf(int group, long key, long now) {
        int first = group * WAYS;
        int chosen = -1;
        long chosenFull = Long.MAX_VALUE;
        for (int slot = first; slot < first + WAYS; slot++) {
            long occupant = this.slots[slot * SLOT];
            if (occupant == key) {
                return slot;
            }
            long full = occupant == 0 ? Long.MIN_VALUE : fullAgainAt(slot);
            if (full < chosenFull) {
                chosen = slot;
                chosenFull = full;
            }
        }
        if (chosenFull == Long.MIN_VALUE) {
            this.occupied.incrementAndGet();
        }
        int at = chosen * SLOT;
        this.slots[at] = key;
        this.slots[at + ENTERS] = 0;
        this.slots[at + POLLS] = 0;
        return chosen;
    }

    /** When both of the slot's buckets are full again (a time at or before now when they are). */
    private long fullAgainAt(int slot) {
        int at = slot * SLOT;
        return Math.max(this.slots[at + ENTERS], this.slots[at + POLLS]);
    }

    /** The client's key, never 0: its IPv4 address, or its IPv6 address's /64, marked apart from any IPv4 one. */
    static long keyOf(InetAddress client) {
        if (client instanceof Inet4Address) {
            return (1L << 32) | (client.hashCode() & 0xFFFF_FFFFL);
        }
        long prefix = ByteBuffer.wrap(client.getAddress()).getLong();
        // the 2^32 IPv6 prefixes that would look like a marked IPv4 address move out of its way
        return prefix >>> 33 == 0 ? prefix | (1L << 62) : prefix;
    }

    /** A 64-bit finaliser (MurmurHash3's) to spread the keyed client over the groups. */
    private static int mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }

    /**
     * A bucket's rate as the cell rate algorithm keeps it: one request an {@code interval}, and a burst of
     * {@code burst} requests at once, which a full bucket takes because its arrival time may run that far ahead.
     */
    private record Rate(long interval, long tolerance) {

        static Rate of(int burst, long interval) {
            return new Rate(interval, interval * (burst - 1L));
        }
    }
}
