package io.queuegate.core.event;

/**
 * One user's turn came: the admission step moved them into the product's entries. Published, one per user, to
 * {@link Topics#ADMISSIONS} for the queues that have a webhook, by the relay that publishes the step's audit change
 * ({@code ADMITTED} on {@link Topics#AUDIT}); the webhook's sender posts each to the shop. At-least-once, like the
 * audit it comes from: {@code eventId} is the same every time the same admission is relayed. New fields may be
 * added; none is removed or renamed.
 *
 * @param eventId unique per admission of a user, and stable across repeats: a receiver drops repeats by it
 * @param productId the product whose line moved
 * @param userId the user admitted
 * @param token the user's token
 * @param admittedAt epoch milliseconds of the admission, by Redis' clock
 * @param expiresAt epoch milliseconds the entry expires unless booked
 */
public record UserAdmitted(String eventId, long productId, String userId, String token, long admittedAt,
        long expiresAt) {
}
