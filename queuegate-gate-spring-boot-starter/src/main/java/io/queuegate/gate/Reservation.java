package io.queuegate.gate;

/**
 * Stock held for an admitted user whose token the gate consumed. Confirm it by making the booking durable;
 * if that fails, hand it to {@link AdmissionGate#release(Reservation)}.
 *
 * @param bookingId the booking's id, unique across products
 * @param productId the product booked
 * @param userId the user the token was issued to
 * @param quantity units reserved
 * @param token the consumed token
 * @param entryExpiresAt when the consumed entry would have expired, epoch ms
 * @param bookedAt when the reservation was made, epoch ms
 */
public record Reservation(String bookingId, long productId, String userId, int quantity, String token,
        long entryExpiresAt, long bookedAt) {
}
