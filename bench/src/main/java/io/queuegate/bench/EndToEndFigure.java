package io.queuegate.bench;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Figure 6 as a run's JSON holds it: a sale from the first enter to the last unit booked. A sale that did not sell
 * out in time has an {@code error} and still every other figure but the sell-out time.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record EndToEndFigure(String error, Long users, Double windowSeconds, Long admitPerSecondSetting, Long stock,
        Long entered, Double enterSeconds, Long enter503Retries, Long failedEnters, Latency enterLatency,
        Latency enterToWaitingPipeline, Latency acceptedToWaiting, Latency enterToWaitingObservedByPoll, Long booked,
        Long soldOut409, Long rejected403, Long expired, Long httpErrors, Latency bookingLatency,
        Double idealSellOutSeconds, Double sellOutSeconds, Double sellOutRatio, Long admittedPerSecond,
        Double admissionAccuracy, Long admittedTotal, Long polls, Long pollsPerSecondAverage, Long pollsPerSecondPeak,
        Double pollsPerUser, Latency pollLatency, List<Second> timeline, Map<String, Object> cpu) {

    /** Whether the sale ran at all: users entered, even if it did not sell out. */
    boolean measured() {
        return this.users != null;
    }

    /** One second of the sale. */
    record Second(long second, long enters, long polls, long bookings, long admitted) {
    }
}
