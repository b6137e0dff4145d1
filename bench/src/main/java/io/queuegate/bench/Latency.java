package io.queuegate.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** A latency histogram's summary as a run's JSON holds it, in milliseconds to the microsecond. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Latency(Long count, Double p50Ms, Double p90Ms, Double p99Ms, Double p999Ms, Double maxMs) {

    /**
     * An empty histogram of nanoseconds that many threads record into at once. Two significant digits keep every
     * percentile within 1 % of the true value, and the histogram stays under 100 KB even for a ten-minute latency.
     */
    static Histogram histogram() {
        return new ConcurrentHistogram(2);
    }

    /** p50/p90/p99/p99.9/max of a histogram of nanoseconds; all zero when nothing was recorded. */
    static Latency of(Histogram nanos) {
        return new Latency(nanos.getTotalCount(), millis(nanos, 50), millis(nanos, 90), millis(nanos, 99),
                millis(nanos, 99.9), millis(nanos, 100));
    }

    private static double millis(Histogram nanos, double percentile) {
        return Math.round(nanos.getValueAtPercentile(percentile) / 1_000.0) / 1_000.0;
    }
}
