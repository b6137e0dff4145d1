package io.queuegate.booking;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.queuegate.core.event.Topics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param topic the topic booking events go to
 * @param partitions partitions of that topic when the service creates it
 * @param publishTimeout the longest a booking waits for Kafka before it is undone and answered 503, and the longest
 *     its reservation may take before the publish begins; the admission workers settle a reservation left unconfirmed
 *     this long and a margin after it was made, so keep {@code queuegate.admission.reservations.publish-timeout} equal
 * @param maxBodyBytes the largest request body accepted
 * @param saleTopic the compacted topic each stock setting is published to before it is acknowledged
 * @param retention how long the bookings topic keeps its records when the service creates it; a Redis that loses
 *     the sale gets its bookings (and so its consumed tokens and its stock) back only from records still there
 */
@Validated
@ConfigurationProperties("queuegate.booking")
public record BookingProperties(
        @DefaultValue("queuegate.bookings") @Pattern(regexp = Topics.LEGAL_NAME) String topic,
        @DefaultValue("12") @Min(1) int partitions,
        @DefaultValue("2s") @NotNull Duration publishTimeout,
        @DefaultValue("4096") @Min(64) long maxBodyBytes,
        @DefaultValue("queuegate.sale") @Pattern(regexp = Topics.LEGAL_NAME) String saleTopic,
        @DefaultValue("30d") @NotNull Duration retention) {
}
