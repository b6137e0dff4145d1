package io.queuegate.ingest;

/**
 * The paths of the API's {@code entries} resource, spelled once for the controllers ({@link EntriesResource}) and
 * the Location of a 202. The front matches a request to them once, where it comes in ({@code front.DoorRoute}).
 */
public final class EntriesPaths {

    /** Where a product's line is entered: {@code POST}. */
    public static final String ENTRIES = "/api/v1/queues/{productId}/entries";

    /** A token's place: {@code GET} to poll, {@code DELETE} to leave. */
    public static final String TOKEN = ENTRIES + "/{token}";

    private static final String QUEUES = "/api/v1/queues/";

    private static final String ENTRIES_SEGMENT = "/entries";

    private EntriesPaths() {
    }

    /** The place of an accepted enter: the Location of the 202. */
    public static String location(long productId, String token) {
        return QUEUES + productId + ENTRIES_SEGMENT + "/" + token;
    }
}
