package io.queuegate.core.queue;

/** Where a token stands, as a polling client sees it. */
public enum EntryStatus {

    /** Ingest accepted the token; the line has not applied its enter event yet. */
    PENDING,

    /** In the line, with a position. */
    WAITING,

    /** Admitted: may book until its entry expires. */
    AVAILABLE,

    /** Expired, left or used: the place is gone. */
    EXPIRED
}
