package io.queuegate.admission.audit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.PeriodicTask;
import io.queuegate.admission.admit.ProductGauge;
import io.queuegate.admission.admit.QueueShare;
import io.queuegate.admission.webhook.WebhookProperties;
import io.queuegate.core.event.EntriesChanged;
import io.queuegate.core.event.UserAdmitted;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.QueueSettings;
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
 *
 * <p>For a queue with a webhook, the relay also publishes each admitted user of an {@code ADMITTED} change as a
 * {@link UserAdmitted} of its own, for the webhook's sender, and deletes the change only once both are acknowledged.
 * The audit stream is the admissions' outbox: the admission step writes it in the same atomic step, so a worker that
 * dies after admitting loses no user's event, and a queue without a webhook costs the step nothing more.
 *
 * <p>Nothing else trims the stream: while Kafka or the relay is away it grows, and at
 * {@code queuegate.admission.audit-backlog-limit} changes the admission step holds rather than write more
 * ({@code admit_batch.lua}). Each round sets {@code queuegate.queue.audit.backlog}, the changes each product's stream
 * holds that Kafka has not acknowledged yet.
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

    private final KafkaTemplate<String, UserAdmitted> admissions;

    private final WebhookProperties webhook;

    private final Keyspace keyspace;

    private final QueueShare share;

    private final String workerId = UUID.randomUUID().toString();

    private final ProductGauge backlog;

    AuditRelay(StringRedisTemplate redis, QueueStore queues, KafkaTemplate<String, EntriesChanged> kafka,
            AdmissionProperties properties, TokenCodec tokens, Keyspace keyspace, QueueShare share,
            KafkaTemplate<String, UserAdmitted> admissions, WebhookProperties webhook, MeterRegistry metrics) {
        super("audit-relay", properties.auditInterval());
        this.backlog = new ProductGauge("queuegate.queue.audit.backlog",
                "Audit changes of the queue Kafka has not acknowledged yet", metrics);
        this.admissions = admissions;
        this.webhook = webhook;
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
            Map<Long, Long> backlogs = new HashMap<>();
            for (long productId : this.queues.productIds()) {
                if (this.share.owns(productId)) {
                    relay(productId);
                    Long left = this.redis.opsForStream().size(this.keyspace.product(productId).audit());
                    backlogs.put(productId, left == null ? 0 : left);
                }
            }
            this.backlog.set(backlogs);
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
        if (records.stream().anyMatch(AuditRelay::isAdmission)
                && this.queues.findSettings(productId).filter(QueueSettings::hasWebhook).isPresent()) {
            for (MapRecord<String, Object, Object> record : records) {
                if (isAdmission(record)) {
                    for (UserAdmitted admitted : admitted(productId, record, this.tokens)) {
                        sends.add(this.admissions.send(this.webhook.topic(), Long.toString(productId), admitted));
                    }
                }
            }
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

    private static boolean isAdmission(MapRecord<String, Object, Object> record) {
        return "ADMITTED".equals(String.valueOf(record.getValue().get("type")));
    }

    /**
     * Each user of an {@code ADMITTED} change, with an event id drawn from the product, the change and the user: the
     * same however often the change is relayed.
     */
    private static List<UserAdmitted> admitted(long productId, MapRecord<String, Object, Object> record,
            TokenCodec codec) {
        Map<Object, Object> fields = record.getValue();
        long at = Long.parseLong(String.valueOf(fields.get("at")));
        long expiresAt = Long.parseLong(String.valueOf(fields.get("expiresAt")));
        String change = record.getId().getValue();
        return split(fields.get("users")).stream()
            .map(user -> new UserAdmitted(eventId(productId, change, user), productId, user,
                    codec.issue(productId, user).value(), at, expiresAt))
            .toList();
    }

    private static String eventId(long productId, String change, String user) {
        return UUID.nameUUIDFromBytes((productId + "/" + change + "/" + user).getBytes(StandardCharsets.UTF_8))
            .toString();
    }

    private static List<String> split(Object joined) {
        String text = joined == null ? "" : joined.toString();
        return text.isEmpty() ? List.of() : Arrays.asList(text.split(","));
    }

}
