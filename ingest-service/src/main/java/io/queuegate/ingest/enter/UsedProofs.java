package io.queuegate.ingest.enter;

/**
 * The proofs of work this instance took, each until its challenge expires (after that the proof is refused as
 * expired anyway), so that one solution enters once. A table of fixed size made at start, 16 bytes a proof: a burst
 * of enters with proofs allocates nothing here, where a cache entry per proof was work for the collector on every
 * enter. A proof sits in a group of eight slots chosen by its id (the first 64 bits of its challenge, a hash the
 * client cannot choose without solving another challenge); a full group gives up the proof nearest to its expiry, as a
 * cache past its size would: with the default size that is half a million proofs taken within one challenge's life.
 */
final class UsedProofs {

    private static final int WAYS = 8;

    private static final int LOCKS = 256;

    /** Pairs of longs: the proof's id (0: an empty slot) and when it expires, in epoch seconds. */
    private final long[] slots;

    private final int groups;

    private final Object[] locks = new Object[LOCKS];

    UsedProofs(int capacity) {
        this.groups = Math.max(1, capacity / WAYS);
        this.slots = new long[this.groups * WAYS * 2];
        for (int i = 0; i < LOCKS; i++) {
            this.locks[i] = new Object();
        }
    }

    /**
     * Takes the proof: true when it was not taken before (and is now), false when it was.
     *
     * @param id the proof's id, not 0
     * @param expiresAt when its challenge expires, in epoch seconds
     * @param now the time now, in epoch seconds
     */
    boolean take(long id, long expiresAt, long now) {
        int group = group(id);
        synchronized (this.locks[group % LOCKS]) {
            int first = group * WAYS;
            int chosen = -1;
            long chosenExpiry = Long.MAX_VALUE;
            for (int slot = first; slot < first + WAYS; slot++) {
                long taken = this.slots[2 * slot];
                long expiry = this.slots[2 * slot + 1];
                if (taken == id && expiry >= now) {
                    return false;
                }
                long rank = taken == 0 || expiry < now ? Long.MIN_VALUE : expiry;
                if (rank < chosenExpiry) {
                    chosen = slot;
                    chosenExpiry = rank;
                }
            }
            this.slots[2 * chosen] = id;
            this.slots[2 * chosen + 1] = expiresAt;
            return true;
        }
    }

    /** Gives the proof back: the enter it was taken for was not accepted, so it may be used again. */
    void giveBack(long id) {
        int group = group(id);
        synchronized (this.locks[group % LOCKS]) {
            for (int slot = group * WAYS; slot < (group + 1) * WAYS; slot++) {
                if (this.slots[2 * slot] == id) {
                    this.slots[2 * slot] = 0;
                    this.slots[2 * slot + 1] = 0;
                }
            }
        }
    }

    private int group(long id) {
        return (int) Long.remainderUnsigned(id ^ (id >>> 29), this.groups);
    }
}
