package io.queuegate.bench;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Figure 2 as a run's JSON holds it: a burst of {@code events} produced to Kafka, timed from the first send until
 * all are in the line ({@code ratio}, figure 2b), and the same burst drained from the log by the released writer
 * ({@code backlog}, figure 2a), both against {@code redis-benchmark}'s ZADD rate.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DrainFigure(String error, Long events, Long records, Long entriesPerRecord, Double produceSeconds,
        Long producedPerSecond, Long sendFailures, Double secondsUntilAllWaiting, Long firstInWaitingMs,
        Long eventsPerSecond, Map<String, Object> cpu, Map<String, Object> cpuMicrosPerEvent, Long waiting,
        Double averageTokenChars, Long yardstickOpsPerSecond, Double ratio, List<long[]> curve, Backlog backlog) {

    boolean measured() {
        return this.error == null;
    }

    /** The backlog's ratio to the yardstick, or null when it was not measured (runs before it existed). */
    Double backlogRatio() {
        return this.backlog == null || this.backlog.error() != null ? null : this.backlog.ratio();
    }

    /** Figure 2a: {@code events} produced while the writer was held, timed from its release until all were in line. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Backlog(String error, Long events, Double produceSeconds, Long sendFailures, Double secondsUntilAllWaiting,
            Long eventsPerSecond, Map<String, Object> cpu, Map<String, Object> cpuMicrosPerEvent, Double ratio) {
    }
}
