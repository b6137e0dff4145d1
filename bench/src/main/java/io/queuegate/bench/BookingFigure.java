package io.queuegate.bench;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Figure 5 as a run's JSON holds it: buyers racing for one product's stock, against a no-op POST. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record BookingFigure(String error, Long attempts, Long booked, Long soldOut409, Long rejected403,
        Long unavailable503, Long errors, Double secondsUntilSoldOut, Long bookingsPerSecond, Latency latency,
        Map<String, Object> cpu, Long stock, Long stockLeft, Long bookingRecords, Boolean exactlyStockSold,
        Map<String, Object> cpuMicrosPerBooking, Map<String, Object> yardstick, String driver, Double ratio) {

    boolean measured() {
        return this.error == null;
    }
}
