package io.queuegate.core.queue;

/**
 * A queue's settings with the size of its line.
 *
 * @param waiting tokens in the line
 * @param active admitted tokens holding an entry
 * @param admittedTotal tokens admitted since the queue was created
 */
public record QueueView(QueueSettings settings, long waiting, long active, long admittedTotal) {
}
