package io.queuegate.admission.line;

/**
 * Where one product's events come from: a partition of the entries topic. One product's events normally share one
 * partition (the key is the product), but the line keeps an applied offset per partition, so a repartitioned topic
 * still applies each partition's events in its own order.
 */
record LineSource(long productId, String topic, int partition) {

    /** The name the line stores the applied offset under. */
    String name() {
        return this.topic + ":" + this.partition;
    }
}
