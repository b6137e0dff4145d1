package io.queuegate.core.queue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** Queue settings in Redis, and the registry of configured queues that admission walks. */
public class QueueStore {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> READ_QUEUE = QueueScripts.of("read_queue", List.class);

    private final StringRedisTemplate redis;

    public QueueStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /**
     * Stores the settings, then registers the product. The registry is written second: a worker that sees the id
     * always finds settings. It has no hash tag because it spans products; nothing reads it inside a script.
     */
    public void save(long productId, QueueSettings settings) {
        this.redis.opsForHash().putAll(QueueKeys.of(productId).settings(), Map.of(
                "maxActive", settings.maxActive().toString(),
                "admitPerSecond", settings.admitPerSecond().toString(),
                "entryTtlSeconds", settings.entryTtlSeconds().toString(),
                "open", settings.open().toString()));
        this.redis.opsForSet().add(QueueKeys.REGISTRY, Long.toString(productId));
    }

    public Optional<QueueSettings> findSettings(long productId) {
        List<Object> values = this.redis.opsForHash().multiGet(QueueKeys.of(productId).settings(),
                List.of("maxActive", "admitPerSecond", "entryTtlSeconds", "open"));
        if (values.getFirst() == null) {
            return Optional.empty();
        }
        return Optional.of(settings(values));
    }

    public Optional<QueueView> find(long productId) {
        QueueKeys keys = QueueKeys.of(productId);
        List<?> reply = this.redis.execute(READ_QUEUE,
                List.of(keys.settings(), keys.waiting(), keys.entry(), keys.stats()));
        if (reply == null || reply.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueView(settings(reply), Admission.number(reply.get(4)),
                Admission.number(reply.get(5)), Admission.number(reply.get(6))));
    }

    public Set<Long> productIds() {
        Set<String> members = this.redis.opsForSet().members(QueueKeys.REGISTRY);
        return members == null ? Set.of()
                : members.stream().map(Long::parseLong).collect(Collectors.toUnmodifiableSet());
    }

    /** Forgets a queue and everything in it. */
    public void delete(long productId) {
        this.redis.opsForSet().remove(QueueKeys.REGISTRY, Long.toString(productId));
        this.redis.delete(QueueKeys.of(productId).all());
    }

    private static QueueSettings settings(List<?> values) {
        return new QueueSettings(Integer.valueOf(values.get(0).toString()), Integer.valueOf(values.get(1).toString()),
                Integer.valueOf(values.get(2).toString()), Boolean.valueOf(values.get(3).toString()));
    }
}
