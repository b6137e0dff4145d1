package io.queuegate.core.event;

import java.util.List;

/**
 * Tokens of one product changed state; the audit trail of a sale, replayable in order per product. Written by
 * the same script that made the change (to the product's Redis stream) and relayed to Kafka, so the trail
 * holds exactly the changes that happened. Relaying is at-least-once: {@code eventId} is unique per change,
 * so a consumer drops repeats by it. New fields may be added; none is removed or renamed.
 *
 * @param eventId the change's id, unique per product (the stream entry id)
 * @param productId the product whose line changed
 * @param type ADMITTED, EXPIRED, LEFT, REVOKED (the operator ended the place), CONSUMED, RESTORED (a booking undone), ABANDONED (a waiting user who stopped
 *     polling lost the place) or SHUFFLED (the sale opened: early entrants re-placed by one step, in the order the seed
 *     gives; see docs/DESIGN.md, "Fair start"); ENTERED only in
 *     trails written before entering was left to the entries topic, which records it in log order
 * @param tokens the tokens that changed, in line order
 * @param at epoch milliseconds of the change, by Redis' clock
 * @param expiresAt for ADMITTED, when the entries expire; otherwise null
 * @param bookingId for CONSUMED and RESTORED, the booking; otherwise null
 * @param seed for SHUFFLED, the seed the early entrants' order was drawn from (see docs/DESIGN.md, "Fair start");
 *     otherwise null
 */
public record EntriesChanged(String eventId, long productId, String type, List<String> tokens, long at,
        Long expiresAt, String bookingId, String seed) {

    /** A change that is not the opening shuffle. */
    public EntriesChanged(String eventId, long productId, String type, List<String> tokens, long at, Long expiresAt,
            String bookingId) {
        this(eventId, productId, type, tokens, at, expiresAt, bookingId, null);
    }
}
