package io.queuegate.core.event;

/**
 * A user asked to enter a product's line: version 1 of the enter event, one user per record, keyed by product id,
 * so one product's events keep their order in one partition. Ingest now publishes {@link EntriesRequested}
 * (many users per record); the writer still reads this shape, so a topic holding it drains after an upgrade.
 * New fields may be added; none is ever removed or renamed.
 *
 * @param productId the product whose line the user enters
 * @param token the entry token ingest issued
 * @param userId the user the token was issued to
 * @param requestId the id of the HTTP request that entered, for tracing
 * @param requestedAt epoch milliseconds when ingest accepted the request
 */
public record EntryRequested(long productId, String token, String userId, String requestId, long requestedAt) {
}
