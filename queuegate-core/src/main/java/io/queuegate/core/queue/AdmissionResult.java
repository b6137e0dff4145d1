package io.queuegate.core.queue;

/**
 * What one admission step did for one product.
 *
 * @param admitted tokens moved from waiting into entry
 * @param expired entries removed because their time ran out
 * @param active entries held after the step
 * @param waiting tokens still waiting after the step
 * @param abandoned waiting users who lost their place because they stopped polling
 * @param drained the queue was deleted and nobody is left in it, waiting or admitted: its keys may go
 * @param auditBacklogFull the step held, changing nothing, because the product's audit stream holds as many unrelayed
 *        changes as the bound allows (Kafka or the relay is away); it admits again once the relay has caught up
 */
public record AdmissionResult(long admitted, long expired, long active, long waiting, long abandoned,
        boolean drained, boolean auditBacklogFull) {

    public static final AdmissionResult UNKNOWN_QUEUE = new AdmissionResult(0, 0, 0, 0, 0);

    /** A step that did not hold. */
    public AdmissionResult(long admitted, long expired, long active, long waiting, long abandoned, boolean drained) {
        this(admitted, expired, active, waiting, abandoned, drained, false);
    }

    /** A step of a queue that is not deleted, or not drained yet, and did not hold. */
    public AdmissionResult(long admitted, long expired, long active, long waiting, long abandoned) {
        this(admitted, expired, active, waiting, abandoned, false);
    }

    /** A step that took nobody out as abandoned. */
    public AdmissionResult(long admitted, long expired, long active, long waiting) {
        this(admitted, expired, active, waiting, 0);
    }

    /** Both steps' changes and counts added up: what a tick did over all the queues it stepped. */
    public AdmissionResult plus(AdmissionResult other) {
        return new AdmissionResult(this.admitted + other.admitted, this.expired + other.expired,
                this.active + other.active, this.waiting + other.waiting, this.abandoned + other.abandoned, false,
                this.auditBacklogFull || other.auditBacklogFull);
    }

    public boolean changedAnything() {
        return this.admitted > 0 || this.expired > 0 || this.abandoned > 0;
    }
}
