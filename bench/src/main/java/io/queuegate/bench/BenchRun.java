package io.queuegate.bench;

import java.util.Map;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run as its JSON holds it, which the report and the chart read: the machine and options it ran with, then one
 * figure per scenario, null when the scenario did not run. A scenario that failed holds only its {@code error}. The
 * rate scenarios ({@code status}, {@code ingest}) are read through {@link RateFigure}.
 */
record BenchRun(String startedAt, String command, Map<String, Object> options, Host machine,
        String rateDriver, Git git, Map<String, Map<String, Object>> services,
        Map<String, Object> background, AdmissionFigure admission, Map<String, Object> redisBenchmarkZadd,
        MemoryFigure memory, DrainFigure drain, Map<String, Object> status, Map<String, Object> ingest,
        BookingFigure booking, EndToEndFigure e2e, StreamsFigure streams, Long seconds) {

    /** Reads runs of every version: fields it does not know are left out, fields a run lacks are null. */
    static final JsonMapper JSON = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .build();

    /** The results a run collected as it went, typed. */
    static BenchRun of(Map<String, Object> results) {
        return JSON.convertValue(results, BenchRun.class);
    }

    RateFigure statusFigure() {
        return RateFigure.of(this.status);
    }

    RateFigure ingestFigure() {
        return RateFigure.of(this.ingest);
    }

    Object option(String field) {
        return this.options == null ? null : this.options.get(field);
    }

    /** The machine the run measured on ({@link Machine#describe}). */
    record Host(Long cpus, String cpuModel, String cpuMHz, Double memoryGiB, String kernel, String java, String redis,
            String kafka, String wrk, String loadAverageAtStart) {
    }

    /** The commit measured, and how many tracked files differed from it. */
    record Git(String commit, Long modifiedFiles) {
    }
}
