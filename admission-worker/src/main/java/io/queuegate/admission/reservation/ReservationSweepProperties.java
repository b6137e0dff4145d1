package io.queuegate.admission.reservation;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the admission workers settle the reservations a booking service left behind ({@link ReservationSweeper}).
 *
 * @param enabled whether this worker sweeps; turn it off only where no booking counter uses the gate
 * @param publishTimeout the booking service's publish timeout ({@code queuegate.booking.publish-timeout}, the same
 *     for a shop's own counter): a booking is published within it of its reservation, and acknowledged within it of
 *     the publish, or undone by the service itself
 * @param margin how much longer than the publish timeout a reservation is left to its booking service; more than the
 *     publish timeout itself (the publish may begin that late), with room for a pause of the service
 * @param interval pause between two rounds over the queues this worker runs
 * @param batch the most reservations settled per product and round; the oldest go first
 * @param lookback how long before the oldest reservation of a round its product's bookings are read from the topic:
 *     a record is stamped by the booking service's clock, a reservation by Redis', and this covers their difference
 */
@Validated
@ConfigurationProperties("queuegate.admission.reservations")
public record ReservationSweepProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("2s") @NotNull Duration publishTimeout,
        @DefaultValue("10s") @NotNull Duration margin,
        @DefaultValue("1s") @NotNull Duration interval,
        @DefaultValue("1000") @Min(1) @Max(100_000) int batch,
        @DefaultValue("1m") @NotNull Duration lookback) {

    /** How old an unconfirmed reservation must be before the sweeper settles it. */
    public Duration settleAfter() {
        return this.publishTimeout.plus(this.margin);
    }
}
