package io.queuegate.admission.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.PeriodicTask;
import io.queuegate.admission.admit.QueueShare;
import io.queuegate.core.event.EntriesChanged;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.TokenCodec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Relays each product's audit stream ({@code audit:{p}}, written by the scripts that change the line) to
 * Kafka, then deletes what the broker acknowledged. Each worker relays the queues it runs ({@link QueueShare}), so a
 * round costs a call per queue of this worker's share, not per queue of the registry; one worker relays a product at
 * a time, under a lease of its own that also covers the moments the queues change hands. If a worker dies between
 * the acknowledgement and the delete, the next holder sends those changes again with the same event ids.
 *
 * <p>The scripts write user ids, which is what the line holds; the relay turns them back into the users' tokens
 * (a token is a function of the product and the user), so the events on the topic name tokens as they always did.
 */
@Component
class AuditRelay extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(AuditRelay.class);

    private static final RedisScript<Long> HOLD_LEASE = QueueScripts.of("hold_lease", Long.class);

    private final StringRedisTemplate redis;

    private final QueueStore queues;

    private final KafkaTemplate<String, EntriesChanged> kafka;

    private final AdmissionProperties properties;

    private final TokenCodec tokens;

    private final Keyspace keyspace;

    private final QueueShare share;

    private final String workerId = UUID.randomUUID().toString();

    AuditRelay(StringRedisTemplate redis, QueueStore queues, KafkaTemplate<String, EntriesChanged> kafka,
            AdmissionProperties properties, TokenCodec tokens, Keyspace keyspace, QueueShare share) {
        super("audit-relay", properties.auditInterval());
        this.share = share;
        this.tokens = tokens;
        this.keyspace = keyspace;
        this.redis = redis;
        this.queues = queues;
        this.kafka = kafka;
        this.properties = properties;
    }

    @Override
    protected void runOnce() {
        try {
            for (long productId : this.queues.productIds()) {
                if (this.share.owns(productId)) {
                    relay(productId);
                }
            }
        }
        catch (RuntimeException ex) {
            log.warn("audit relay paused, the next round tries again: {}", ex.toString());
        }
    }

    /** @return how many changes were relayed */
    int relay(long productId) {
        QueueKeys keys = this.keyspace.product(productId);
        long leaseMs = this.properties.auditInterval().toMillis() * 10;
        Long held = this.redis.execute(HOLD_LEASE, List.of(keys.auditLease()), this.workerId, Long.toString(leaseMs));
        if (held == null || held == 0) {
            return 0;
        }
        List<MapRecord<String, Object, Object>> records = this.redis.opsForStream()
            .range(keys.audit(), Range.unbounded(), Limit.limit().count(this.properties.auditBatch()));
        if (records == null || records.isEmpty()) {
            return 0;
        }
        List<CompletableFuture<?>> sends = new ArrayList<>(records.size());
        for (MapRecord<String, Object, Object> record : records) {
            sends.add(this.kafka.send(this.properties.auditTopic(), Long.toString(productId),
                    event(productId, record, this.tokens)));
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        }
        catch (Exception ex) {
            log.warn("audit of product {} not acknowledged by Kafka; kept for the next round: {}", productId,
                    ex.toString());
            return 0;
        }
        this.redis.opsForStream().delete(keys.audit(),
                records.stream().map(MapRecord::getId).toArray(RecordId[]::new));
        return records.size();
    }

    static EntriesChanged event(long productId, MapRecord<String, Object, Object> record, TokenCodec codec) {
        Map<Object, Object> fields = record.getValue();
        List<String> tokens = fields.containsKey("users")
                ? split(fields.get("users")).stream().map(user -> codec.issue(productId, user).value()).toList()
                // written before the line held user ids
                : split(fields.get("tokens"));
        Object expiresAt = fields.get("expiresAt");
        Object bookingId = fields.get("bookingId");
        Object seed = fields.get("seed");
        return new EntriesChanged(record.getId().getValue(), productId, String.valueOf(fields.get("type")),
                tokens,
                Long.parseLong(String.valueOf(fields.get("at"))),
                expiresAt == null ? null : Long.valueOf(expiresAt.toString()),
                bookingId == null ? null : bookingId.toString(), seed == null ? null : seed.toString());
    }

    private static List<String> split(Object joined) {
        String text = joined == null ? "" : joined.toString();
        return text.isEmpty() ? List.of() : Arrays.asList(text.split(","));
    }

}
