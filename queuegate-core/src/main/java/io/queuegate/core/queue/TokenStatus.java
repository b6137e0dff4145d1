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
     * The product's stock is gone: nobody is admitted, and nobody admitted can book, until stock returns. Every place
     * is kept: one in the line (or about to be) reads WAITING (or PENDING) again when stock returns, and an admitted
     * one AVAILABLE again if that happens before its admission expires.
     */
    SOLD_OUT
}
