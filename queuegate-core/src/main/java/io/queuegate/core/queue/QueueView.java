package io.queuegate.core.queue;

/**
 * A queue's settings with the size of its line.
 *
 * @param waiting tokens in the line
 * @param active admitted tokens holding an entry
 * @param admittedTotal tokens admitted since the queue was created
 * @param pace admissions per second actually made, smoothed; null before there is history
 * @param stock units left to sell; null when no stock is set for the product
 * @param seed the seed the early entrants' order was drawn from at the opening; null before (or without) one
 * @param held users the operator holds
 * @param revokedTotal places the operator revoked
 * @param deletedAt epoch milliseconds the queue was deleted (it is draining); null while it exists
 * @param auditBacklog changes in the queue's audit stream that Kafka has not acknowledged yet
 */
public record QueueView(QueueSettings settings, long waiting, long active, long admittedTotal, Double pace,
        Long stock, String seed, long held, long revokedTotal, Long deletedAt, long auditBacklog) {

    /** A view of a queue nobody held or revoked anything in, whose audit is relayed. */
    public QueueView(QueueSettings settings, long waiting, long active, long admittedTotal, Double pace, Long stock,
            String seed) {
        this(settings, waiting, active, admittedTotal, pace, stock, seed, 0, 0, null, 0);
    }

    /** Stock is set and none is left: nobody is admitted until it returns. */
    public boolean soldOut() {
        return this.stock != null && this.stock <= 0;
    }
}
