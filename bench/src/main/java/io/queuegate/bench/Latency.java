package io.queuegate.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A latency histogram's summary as a run's JSON holds it ({@link Histogram#summaryMillis}), in milliseconds. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Latency(Long count, Double p50Ms, Double p90Ms, Double p99Ms, Double p999Ms, Double maxMs) {
}
