package io.queuegate.bench;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Figure 8 as a run's JSON holds it: event streams held open at one ingest ({@link StreamsScenario}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
record StreamsFigure(String error, Long wanted, Long openFileLimit, Long streams, Double secondsToOpen,
        Long openWithFirstEvent, Long toldToPollOrFailed, Long endedWhileOpening, Long heapBeforeMiB, Long heapHeldMiB,
        Long rssBeforeMiB, Long rssHeldMiB, Long heapBytesPerStream, Long rssBytesPerStream, Long redisCallsPerSecond,
        Long placesReadPerSecond, Long admitted, Long availableNotTold, Latency admissionToAvailable,
        Long stillOpenAtEnd, Long admitPerSecond, Map<String, Object> cpu) {

    boolean measured() {
        return this.error == null;
    }
}
