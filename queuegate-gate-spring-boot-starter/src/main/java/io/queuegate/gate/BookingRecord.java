package io.queuegate.gate;

/** A booking as the gate stores it beside the product's stock. */
public record BookingRecord(String bookingId, long productId, String userId, int quantity, long bookedAt) {
}
