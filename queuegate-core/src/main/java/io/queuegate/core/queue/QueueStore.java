package io.queuegate.core.queue;

import java.text.ParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.queuegate.core.pass.PassVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static io.queuegate.core.queue.ScriptReplies.number;

/**
 * Queue settings in Redis, and the registry of configured queues that admission walks. Every write of settings is
 * announced on {@link Keyspace#queueChangesChannel()}, so that the ingests, which serve a copy of the settings to every
 * enter, read them again at once.
 */
public class QueueStore {

    private static final Logger log = LoggerFactory.getLogger(QueueStore.class);

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> READ_QUEUE = QueueScripts.of("read_queue", List.class);

    private static final RedisScript<Long> SAVE_QUEUE = QueueScripts.of("save_queue", Long.class);

    private static final RedisScript<Long> MARK_DELETED = QueueScripts.of("mark_deleted", Long.class);

    private static final List<Object> FIELDS = List.of("maxActive", "admitPerSecond", "entryTtlSeconds", "open",
            "maxPollsPerSecond", "abandonAfterSeconds", "opensAt", "challengeMaxNumber", "inviteOnly", "passKeys",
            "passJwksUri", "webhookUrl", "webhookSecret", "identity", "returnHosts");

    private final StringRedisTemplate redis;

    private final Keyspace keyspace;

    private final String registry;

    public QueueStore(StringRedisTemplate redis) {
        this(redis, QueueKeys.REGISTRY);
    }

    /** @param registry the set of product ids the admission workers walk ({@link RegistryProperties}) */
    public QueueStore(StringRedisTemplate redis, String registry) {
        this(redis, Keyspace.DEFAULT, registry);
    }

    /**
     * @param registry the name of the set of product ids the admission workers walk ({@link RegistryProperties}),
     *        which the keyspace's prefix goes before
     */
    public QueueStore(StringRedisTemplate redis, Keyspace keyspace, String registry) {
        this.redis = redis;
        this.keyspace = keyspace;
        this.registry = keyspace.registry(registry);
    }

    /**
     * Stores the settings, then registers the product. The registry is written second: a worker that sees the id
     * always finds settings. It has no hash tag because it spans products; nothing reads it inside a script.
     */
    public void save(long productId, QueueSettings settings) {
        this.redis.execute(SAVE_QUEUE, List.of(this.keyspace.product(productId).settings()),
                "maxActive", settings.maxActive().toString(),
                "admitPerSecond", settings.admitPerSecond().toString(),
                "entryTtlSeconds", settings.entryTtlSeconds().toString(),
                "open", settings.open().toString(),
                "maxPollsPerSecond", optional(settings.maxPollsPerSecond()),
                "abandonAfterSeconds", optional(settings.abandonAfterSeconds()),
                "opensAt", optional(settings.opensAt()),
                "challengeMaxNumber", optional(settings.challengeMaxNumber()),
                // saving settings creates the queue again if it was deleted
                "deletedAt", "",
                "inviteOnly", optional(settings.inviteOnly()),
                "passKeys", settings.passKeys() == null ? ""
                        : new JWKSet(PassVerifier.parse(settings.passKeys())).toString(true),
                "passJwksUri", optional(settings.passJwksUri()),
                "webhookUrl", optional(settings.webhookUrl()),
                "webhookSecret", optional(settings.webhookSecret()),
                "identity", settings.identity().value(),
                // host names and ports hold no comma
                "returnHosts", settings.returnHosts() == null ? "" : String.join(",", settings.returnHosts()));
        this.redis.opsForSet().add(this.registry, Long.toString(productId));
        announce(productId);
    }

    public Optional<QueueSettings> findSettings(long productId) {
        List<Object> values = this.redis.opsForHash().multiGet(this.keyspace.product(productId).settings(), FIELDS);
        if (values.getFirst() == null) {
            return Optional.empty();
        }
        return Optional.of(settings(values.get(0), values.get(1), values.get(2), values.get(3), values.get(4),
                values.get(5), values.get(6), values.get(7), values.get(8), values.get(9), values.get(10),
                values.get(11), values.get(12), values.get(13), values.get(14)));
    }

    public Optional<QueueView> find(long productId) {
        QueueKeys keys = this.keyspace.product(productId);
        List<?> reply = this.redis.execute(READ_QUEUE, List.of(keys.settings(), keys.waiting(), keys.entry(),
                keys.stats(), keys.stock(), keys.held(), keys.audit()));
        if (reply == null || reply.isEmpty()) {
            return Optional.empty();
        }
        QueueSettings settings = settings(reply.get(0), reply.get(1), reply.get(2), reply.get(3), reply.get(7),
                reply.get(8), reply.get(11), reply.get(13), reply.get(14), reply.get(15), reply.get(19),
                reply.get(20), reply.get(21), reply.get(22), reply.get(24));
        Object pace = reply.get(9);
        Object stock = reply.get(10);
        Object seed = reply.get(12);
        return Optional.of(new QueueView(settings, number(reply.get(4)), number(reply.get(5)),
                number(reply.get(6)), pace == null ? null : Double.valueOf(pace.toString()),
                stock == null ? null : Long.valueOf(stock.toString()), seed == null ? null : seed.toString(),
                number(reply.get(16)), number(reply.get(17)),
                reply.get(18) == null ? null : Long.valueOf(reply.get(18).toString()), number(reply.get(23))));
    }

    /**
     * The configured products: one read of the registry, never a scan of the keyspace, so its cost follows the
     * number of queues, not the number of keys.
     */
    public Set<Long> productIds() {
        Set<String> members = this.redis.opsForSet().members(this.registry);
        return members == null ? Set.of()
                : members.stream().map(Long::parseLong).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Marks the queue deleted and closed: the admission steps tell its line EXPIRED and report it drained once nobody
     * is left (see {@code admit_batch.lua}); {@link #remove} then takes its keys. Nothing happens to a queue that has
     * no settings.
     */
    public void markDeleted(long productId, long deletedAt) {
        this.redis.execute(MARK_DELETED, List.of(this.keyspace.product(productId).settings()),
                Long.toString(deletedAt));
        announce(productId);
    }

    /**
     * Tells every ingest listening that the queue's settings changed, after they were written, so that a read the
     * message sets off finds them. Only news: a message lost (an ingest reconnecting, a failover, a failed publish)
     * leaves that ingest's copy to its periodic re-read ({@code queuegate.ingest.queue-cache-ttl}), and the write is
     * done either way, so a failed publish must not fail it. Sent as the admission step's news is ({@link Admission}),
     * after the script rather than inside it: the scripts stay about keys alone.
     */
    private void announce(long productId) {
        try {
            this.redis.convertAndSend(this.keyspace.queueChangesChannel(), Long.toString(productId));
        }
        catch (RuntimeException ex) {
            log.debug("could not announce the change of queue {}: {}", productId, ex.toString());
        }
    }

    /**
     * Removes a drained queue: out of the registry, and its line's keys gone. The product's stock and bookings stay:
     * they are the booking service's, and a booking is looked up by id after its sale.
     */
    public void remove(long productId) {
        this.redis.opsForSet().remove(this.registry, Long.toString(productId));
        QueueKeys keys = this.keyspace.product(productId);
        this.redis.delete(List.of(keys.settings(), keys.waiting(), keys.entry(), keys.gone(), keys.seen(),
                keys.held(), keys.stats(), keys.audit(), keys.auditLease(), keys.admissionLease(), keys.revoked()));
    }

    /** Forgets a queue and everything in it. */
    public void delete(long productId) {
        this.redis.opsForSet().remove(this.registry, Long.toString(productId));
        this.redis.delete(this.keyspace.product(productId).all());
    }

    private static QueueSettings settings(Object maxActive, Object admitPerSecond, Object entryTtlSeconds,
            Object open, Object maxPollsPerSecond, Object abandonAfterSeconds, Object opensAt,
            Object challengeMaxNumber, Object inviteOnly, Object passKeys, Object passJwksUri, Object webhookUrl,
            Object webhookSecret, Object identity, Object returnHosts) {
        return new QueueSettings(Integer.valueOf(maxActive.toString()), Integer.valueOf(admitPerSecond.toString()),
                Integer.valueOf(entryTtlSeconds.toString()), Boolean.valueOf(open.toString()),
                integerOrNull(maxPollsPerSecond), integerOrNull(abandonAfterSeconds),
                opensAt == null ? null : Long.valueOf(opensAt.toString()), integerOrNull(challengeMaxNumber),
                inviteOnly == null ? null : Boolean.valueOf(inviteOnly.toString()), passKeys(passKeys),
                stringOrNull(passJwksUri), stringOrNull(webhookUrl), stringOrNull(webhookSecret),
                Identity.of(stringOrNull(identity)),
                returnHosts == null ? null : List.of(returnHosts.toString().split(",")));
    }

    /** The pass keys as stored: a JWK set's JSON, checked when it was saved. */
    private static List<Map<String, Object>> passKeys(Object stored) {
        if (stored == null) {
            return null;
        }
        try {
            return JWKSet.parse(stored.toString()).getKeys().stream().map(JWK::toJSONObject).toList();
        }
        catch (ParseException ex) {
            throw new IllegalStateException("unreadable pass keys in a queue's settings", ex);
        }
    }

    private static String stringOrNull(Object value) {
        return value == null ? null : value.toString();
    }

    private static Integer integerOrNull(Object value) {
        return value == null ? null : Integer.valueOf(value.toString());
    }

    /** An optional setting for {@code save_queue.lua}: empty deletes it. */
    private static String optional(Object value) {
        return value == null ? "" : value.toString();
    }
}
