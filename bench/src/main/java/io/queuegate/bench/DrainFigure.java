package io.queuegate.bench;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Figure 2 as a run's JSON holds it: a burst of {@code events} produced to Kafka, timed until all are in the line,
 * against {@code redis-benchmark}'s ZADD rate.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DrainFigure(String error, Long events, Long records, Long entriesPerRecord, Double produceSeconds,
        Long producedPerSecond, Long sendFailures, Double secondsUntilAllWaiting, Long firstInWaitingMs,
        Long eventsPerSecond, Map<String, Object> cpu, Map<String, Object> cpuMicrosPerEvent, Long waiting,
        Double averageTokenChars, Long yardstickOpsPerSecond, Double ratio, List<long[]> curve) {

    boolean measured() {
        return this.error == null;
    }
}
