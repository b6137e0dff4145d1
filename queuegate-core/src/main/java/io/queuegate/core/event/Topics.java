package io.queuegate.core.event;

/** Default Kafka topic names; each service lets them be overridden in its settings. */
public final class Topics {

    /** Enter events ({@link EntriesRequested}, formerly {@link EntryRequested}), keyed by product id. */
    public static final String ENTRIES = "queuegate.entries";

    /** Bookings, keyed by product id. */
    public static final String BOOKINGS = "queuegate.bookings";

    private Topics() {
    }
}
