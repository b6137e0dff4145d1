package io.queuegate.core.event;

/** Default Kafka topic names; each service lets them be overridden in its settings. */
public final class Topics {

    /**
     * Kafka's rule for a topic's name, as a {@code @Pattern} for the settings that name one: 1 to 249 ASCII letters,
     * digits, '.', '_' and '-', and neither "." nor "..". A service refuses to start on any other name rather than
     * fail at its first send.
     */
    public static final String LEGAL_NAME = "(?!\\.{1,2}$)[a-zA-Z0-9._-]{1,249}";

    /** Enter events ({@link EntriesRequested}, formerly {@link EntryRequested}), keyed by product id. */
    public static final String ENTRIES = "queuegate.entries";

    /** Bookings, keyed by product id. */
    public static final String BOOKINGS = "queuegate.bookings";

    /** Leaves ({@link EntryLeft}), keyed by product id. */
    public static final String LEAVES = "queuegate.leaves";

    /** The line's state changes ({@link EntriesChanged}), relayed from Redis, keyed by product id. */
    public static final String AUDIT = "queuegate.audit";

    /**
     * Admissions ({@link UserAdmitted}, one per user) of the queues that have a webhook, keyed by product id; the
     * webhook's sender reads them.
     */
    public static final String ADMISSIONS = "queuegate.admissions";

    /**
     * What an operator set at the admission worker: each product's queue settings ({@link QueueConfigured}, key
     * {@code queue:<p>}) and its held users ({@link UserHeld}). Compacted: the last value of each key is what a Redis
     * that lost them gets back. Deployments from before {@link #STOCK} hold stock settings here too, which a restore
     * still reads; the booking service no longer writes here (nor may it, on a broker with ACLs).
     */
    public static final String SALE = "queuegate.sale";

    /**
     * Each product's last stock setting ({@link StockSet}, key {@code stock:<p>}), written by the booking service
     * only. Apart from {@link #SALE} so that the booking service's Kafka user needs no write to the queue settings a
     * restore takes as they are (webhook URLs among them). Compacted, like the sale topic.
     */
    public static final String STOCK = "queuegate.stock";

    private Topics() {
    }
}
