package io.queuegate.core.event;

import java.util.List;

/**
 * Users asked to enter one product's line, accepted by one ingest instance together: version 2 of the enter event.
 * Ingest publishes the enters that arrive while its previous record is in flight as one record keyed by product
 * (a group commit: one send and one acknowledgement for many 202s). The line applies the entries in list order,
 * and a topic may still hold version 1 records ({@link EntryRequested}, one user each): the writer reads both.
 * New fields may be added; none is ever removed or renamed.
 *
 * @param version always {@link #VERSION}; a reader tells the two shapes apart by the {@code entries} field
 * @param productId the product whose line the users enter
 * @param entries the enters, in the order ingest accepted them
 */
public record EntriesRequested(int version, long productId, List<Entry> entries) {

    public static final int VERSION = 2;

    public EntriesRequested(long productId, List<Entry> entries) {
        this(VERSION, productId, entries);
    }

    /**
     * One user's enter.
     *
     * @param token the entry token ingest issued
     * @param userId the user the token was issued to
     * @param requestId the id of the HTTP request that entered, for tracing
     * @param requestedAt epoch milliseconds when ingest accepted the request
     */
    public record Entry(String token, String userId, String requestId, long requestedAt) {
    }
}
