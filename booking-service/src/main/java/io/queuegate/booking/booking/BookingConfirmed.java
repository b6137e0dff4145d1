package io.queuegate.booking.booking;

/**
 * A booking was made; published before the buyer is told. New fields may be added; none is removed or renamed.
 */
public record BookingConfirmed(String bookingId, long productId, String userId, int quantity, long bookedAt) {
}
