package io.queuegate.core.queue;

/** Where a token stands, as a polling client sees it. */
public enum TokenStatus {

    /** Ingest accepted the token; the line has not applied its enter event yet. */
    PENDING,

    /** In the line, with a position. */
    WAITING,

    /** Admitted: may book until its entry expires. */
    AVAILABLE,

    /** Expired, left, used or abandoned (not polled for the queue's abandonAfterSeconds): the place is gone. */
    EXPIRED,

    /**
     * In the line or about to be, but the product's stock is gone: nobody is admitted until stock returns. The place
     * is kept, and the status reads WAITING (or PENDING) again when it does.
     */
    SOLD_OUT
}
