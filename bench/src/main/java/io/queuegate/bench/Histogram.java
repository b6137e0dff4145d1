package io.queuegate.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in microseconds, log-linear buckets (64 per power of two, under 1.6 % error), safe for concurrent
 * recording. Enough for p50/p99/p99.9 of a run without keeping every sample.
 */
final class Histogram {

    private static final int SUB = 64;

    private static final int BUCKETS = 2 * SUB + 40 * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    void recordNanos(long nanos) {
        record(Math.max(0, nanos / 1_000));
    }

    void record(long micros) {
        this.counts.incrementAndGet(index(micros));
    }

    static int index(long value) {
        if (value < 2 * SUB) {
            return (int) value;
        }
        int msb = 63 - Long.numberOfLeadingZeros(value);
        int shift = msb - 6;
        int index = 2 * SUB + (shift - 1) * SUB + (int) ((value >>> shift) - SUB);
        return Math.min(index, BUCKETS - 1);
    }

    static long valueOf(int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int shift = (index - 2 * SUB) / SUB + 1;
        long top = (index - 2 * SUB) % SUB + SUB;
        return (top << shift) + (1L << shift) / 2;
    }

    long count() {
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            total += this.counts.get(i);
        }
        return total;
    }

    /** The value at or under which {@code percent} of the samples are, in microseconds; 0 when empty. */
    long percentile(double percent) {
        long total = count();
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(total * percent / 100);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += this.counts.get(i);
            if (seen >= Math.max(1, rank)) {
                return valueOf(i);
            }
        }
        return valueOf(BUCKETS - 1);
    }

    /** p50/p90/p99/p99.9/max in milliseconds, for the results JSON. */
    Map<String, Object> summaryMillis() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("count", count());
        out.put("p50Ms", this.percentile(50) / 1000.0);
        out.put("p90Ms", this.percentile(90) / 1000.0);
        out.put("p99Ms", this.percentile(99) / 1000.0);
        out.put("p999Ms", this.percentile(99.9) / 1000.0);
        out.put("maxMs", this.percentile(100) / 1000.0);
        return out;
    }
}
