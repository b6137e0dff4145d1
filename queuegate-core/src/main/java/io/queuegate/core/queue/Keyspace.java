package io.queuegate.core.queue;

/**
 * The names of every Redis key of one deployment, each starting with its key prefix
 * ({@code queuegate.redis.key-prefix}): two deployments with different prefixes share one Redis or one cluster
 * without reading or writing each other's keys. Product keys come from {@link #product(long)}; the few keys that span
 * products (the registry, the lines' id, the admission workers) from the methods here, each read on its own and
 * never inside a product's script.
 *
 * <p>The prefix may hold no braces: Redis Cluster hashes the first {@code {...}} of a key, which must stay the
 * product's tag, or a product's keys would no longer share a slot (or every product would share one).
 *
 * @param prefix put before every key name verbatim, e.g. {@code tenantA:}; empty for the default keyspace
 */
public record Keyspace(String prefix) {

    /** No prefix: the keys as they were before namespaces. */
    public static final Keyspace DEFAULT = new Keyspace("");

    private static final String ADMISSIONS_CHANNEL = "admitted";

    private static final String QUEUE_CHANGES_CHANNEL = "queue-changed";

    public Keyspace {
        requireUsablePrefix(prefix);
    }

    /** Every key of one product. */
    public QueueKeys product(long productId) {
        return new QueueKeys(this.prefix, productId);
    }

    /** @param name the registry's name ({@code queuegate.queues.registry}, {@link QueueKeys#REGISTRY} by default) */
    public String registry(String name) {
        return this.prefix + name;
    }

    /**
     * The channel an admission step publishes its product's id on when it admitted anyone ({@link Admission}): the
     * event streams of that product are read at once rather than at their next step. A channel, not a key: one per
     * keyspace, with every product's news on it.
     */
    public String admissionsChannel() {
        return this.prefix + ADMISSIONS_CHANNEL;
    }

    /**
     * The channel a queue's product id is published on once its settings were written ({@link QueueStore#save},
     * {@link QueueStore#markDeleted}): every ingest reads that queue's settings again at once, so a close or a deletion
     * refuses enters within a Redis read, however long the ingest had served its copy. A channel, not a key: one per
     * keyspace; a plain {@code PUBLISH}, which Redis Cluster delivers to the subscribers of every node.
     */
    public String queueChangesChannel() {
        return this.prefix + QUEUE_CHANGES_CHANNEL;
    }

    /** The lines' id ({@link QueueKeys#LINE_EPOCH}) in this keyspace. */
    public String lineEpoch() {
        return this.prefix + QueueKeys.LINE_EPOCH;
    }

    /**
     * Sorted set of the admission workers alive that walk one registry, each scored by when its heartbeat lapses
     * (epoch ms, Redis time): they share the registry's queues among themselves.
     *
     * @param registry the registry's name, as for {@link #registry(String)}
     */
    public String admissionWorkers(String registry) {
        return registry(registry) + ":workers";
    }

    static void requireUsablePrefix(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("the key prefix must not be null (empty for none)");
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("the key prefix '" + prefix
                    + "' must not hold braces: the product's hash tag must stay the first {...} of each key");
        }
    }
}
