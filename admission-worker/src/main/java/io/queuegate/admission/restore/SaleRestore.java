package io.queuegate.admission.restore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.event.QueueConfigured;
import io.queuegate.core.event.StockSet;
import io.queuegate.core.event.UserHeld;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;

/**
 * Gives a Redis that lost the sale back everything but the lines, from durable records, before the lines are
 * replayed: the queues' settings and held users (the compacted sale topic), the stock settings (the compacted stock
 * topic), the leaves (the leaves topic), the admissions, expiries and abandonments (the audit topic) and the bookings
 * (the bookings topic). So a used token stays used (its user is gone before the line is replayed, and is not placed
 * again), the stock comes back as set minus what was booked since, and admitted users get their entries back instead
 * of a place in the line, never more than were admitted.
 *
 * <p>Runs only when the writer found Redis without the lines it applied, or served by another process than the one
 * it applied them to ({@code LineRebuild}), on the writer's thread, before it reads the entries topic again. On a
 * Redis that lost everything nobody can be placed, admitted or book before it is done (the queues' settings and the
 * stock are gone). On one that kept an older state, its lines carry another process's stamp until the restore
 * re-stamps them ({@code finish_restore.lua}): until then it admits nobody, appends nothing and books nothing (the
 * counter answers 503), so what it lost is back before anything new is built on it. Every write is idempotent, so
 * two workers restoring at once, or a restore repeated after a failure, are safe. What it cannot give back: the
 * audit trail's last changes not yet relayed when Redis lost them (up to one relay interval, 0.5 s by default): such
 * an admission is made again (the user is back at the head of the line), such an expiry or abandonment is undone (the
 * user is back in the line at the same place).
 *
 * <p>Each topic is taken only for what its writer owns: the stock topic (the booking service's) gives stock settings
 * and nothing else, so a record there keyed as a queue's settings or a hold is skipped. The sale topic still gives the
 * stock settings a booking service wrote there before the stock topic existed; it is read first, so that a setting on
 * the stock topic, always the later one, wins.
 */
@Component
public class SaleRestore {

    private static final Logger log = LoggerFactory.getLogger(SaleRestore.class);

    private static final RedisScript<Long> RESTORE_PLACES = QueueScripts.of("restore_places", Long.class);

    private static final RedisScript<Long> BEGIN_RESTORE = QueueScripts.of("begin_restore", Long.class);

    private static final RedisScript<Long> RESTORE_STOCK = QueueScripts.of("restore_stock", Long.class);

    private static final RedisScript<Long> FINISH_RESTORE = QueueScripts.of("finish_restore", Long.class);

    private static final int SLICE = 1000;

    private static final Duration POLL = Duration.ofMillis(200);

    private final StringRedisTemplate redis;

    private final QueueStore queues;

    private final ConsumerFactory<String, byte[]> consumers;

    private final AdmissionProperties properties;

    private final TokenCodec tokens;

    private final JsonMapper json;

    private final Keyspace keyspace;

    SaleRestore(StringRedisTemplate redis, QueueStore queues, ConsumerFactory<String, byte[]> consumers,
            AdmissionProperties properties, TokenCodec tokens, JsonMapper json, Keyspace keyspace) {
        this.keyspace = keyspace;
        this.redis = redis;
        this.queues = queues;
        this.consumers = consumers;
        this.properties = properties;
        this.tokens = tokens;
        this.json = json;
    }

    /**
     * Reads the topics to their current ends and writes what they say to Redis.
     *
     * @param epoch the lines' epoch of the Redis restored
     * @param foundEmpty whether the writer found that Redis without an epoch: whatever its lines hold then came from
     *     stale writes, and is dropped before the replay. Otherwise Redis kept an older state of the sale (it
     *     restarted, or failed over, and lost its last writes): what it lacks is added, what the log changed since
     *     (settings, the stock setting) is written again, and its lines keep what they hold
     */
    public void restore(String epoch, boolean foundEmpty) {
        long started = System.nanoTime();
        SaleLedger ledger = new SaleLedger();
        long records = read(this.properties.saleTopic(), record -> sale(ledger, record))
                + read(this.properties.stockTopic(), record -> stock(ledger, record))
                + read(this.properties.auditTopic(), record -> audit(ledger, record))
                + read(this.properties.leavesTopic(), record -> left(ledger, record))
                + read(this.properties.bookingsTopic(), record -> booking(ledger, record));
        ledger.products().forEach((productId, sale) -> write(productId, sale, epoch, foundEmpty));
        if (!foundEmpty) {
            // Redis kept its lines: every line it holds must be stamped for its new process, or it refuses appends,
            // including those of a queue no durable record names (nothing else of it is known to restore)
            for (long productId : this.queues.productIds()) {
                if (!ledger.products().containsKey(productId)) {
                    this.redis.execute(FINISH_RESTORE, List.of(this.keyspace.product(productId).stats()));
                }
            }
        }
        log.warn("restored the sale of {} products from {} records in {} ms", ledger.products().size(), records,
                (System.nanoTime() - started) / 1_000_000);
    }

    private long read(String topic, java.util.function.Consumer<ConsumerRecord<String, byte[]>> apply) {
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        try (Consumer<String, byte[]> consumer = this.consumers.createConsumer(null, "sale-restore", null,
                overrides)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                return 0;
            }
            List<TopicPartition> partitions = infos.stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            long count = 0;
            while (!reached(consumer, ends)) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    if (record.offset() < ends.getOrDefault(new TopicPartition(topic, record.partition()), 0L)) {
                        apply.accept(record);
                        count++;
                    }
                }
            }
            return count;
        }
    }

    private static boolean reached(Consumer<?, ?> consumer, Map<TopicPartition, Long> ends) {
        ends.entrySet().removeIf(end -> consumer.position(end.getKey()) >= end.getValue());
        return ends.isEmpty();
    }

    private void sale(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        if (record.key().startsWith(UserHeld.KEY_PREFIX)) {
            held(ledger, record);
            return;
        }
        if (record.value() == null) {
            return;
        }
        if (record.key().startsWith("queue:")) {
            QueueConfigured configured = this.json.readValue(record.value(), QueueConfigured.class);
            ledger.configured(configured.productId(), configured.settings(), configured.deletedAt());
        }
        else if (record.key().startsWith(StockSet.KEY_PREFIX)) {
            // written before the stock topic existed: the booking service may no longer write here
            ledger.stockSet(this.json.readValue(record.value(), StockSet.class));
        }
    }

    /** The stock topic's stock settings; whatever else it holds was not written by the booking service's code. */
    private void stock(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        if (!record.key().startsWith(StockSet.KEY_PREFIX)) {
            log.warn("skipped a record of the stock topic {} with the key {}: it holds stock settings only",
                    record.topic(), record.key());
            return;
        }
        ledger.stockSet(this.json.readValue(record.value(), StockSet.class));
    }

    /** {@code held:<productId>:<userId>}: a hold, or with no value its release. */
    private void held(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        String[] parts = record.key().split(":", 3);
        if (parts.length == 3) {
            try {
                ledger.held(Long.parseLong(parts[1]), parts[2], record.value() != null);
            }
            catch (NumberFormatException ex) {
                log.warn("skipped a hold with the unreadable key {}", record.key());
            }
        }
    }

    private void audit(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        JsonNode event = this.json.readTree(record.value());
        long productId = event.path("productId").asLong();
        List<String> users = new ArrayList<>();
        for (JsonNode token : event.path("tokens")) {
            this.tokens.verify(token.asString(), productId).map(Token::userId).ifPresent(users::add);
        }
        JsonNode expiresAt = event.path("expiresAt");
        JsonNode seed = event.path("seed");
        String type = event.path("type").asString();
        ledger.changed(productId, type, users, expiresAt.isNumber() ? expiresAt.asLong() : null,
                seed.isString() ? seed.asString() : null);
        JsonNode bookingId = event.path("bookingId");
        if ("RESTORED".equals(type) && bookingId.isString()) {
            ledger.undone(productId, bookingId.asString());
        }
    }

    private void left(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        JsonNode leave = this.json.readTree(record.value());
        ledger.left(leave.path("productId").asLong(), leave.path("userId").asString());
    }

    private void booking(SaleLedger ledger, ConsumerRecord<String, byte[]> record) {
        JsonNode booking = this.json.readTree(record.value());
        // the booking event and the gate's record have the same fields, so the event is stored as it is
        ledger.booked(booking.path("productId").asLong(), booking.path("bookingId").asString(),
                booking.path("userId").asString(), booking.path("quantity").asInt(1),
                new String(record.value(), StandardCharsets.UTF_8));
    }

    /** Gone first, so that nobody used is given an entry; the settings last, so that the tick starts on the rest. */
    private void write(long productId, SaleLedger.ProductSale sale, String epoch, boolean foundEmpty) {
        QueueKeys keys = this.keyspace.product(productId);
        this.redis.execute(BEGIN_RESTORE, List.of(keys.waiting(), keys.seen(), keys.stats()), epoch,
                foundEmpty ? "1" : "0");
        List<String> placeKeys = List.of(keys.waiting(), keys.entry(), keys.gone(), keys.bookings(), keys.stock(),
                keys.stats(), keys.seen());
        List<String> gone = new ArrayList<>(sale.goneUsers());
        for (int from = 0; from < gone.size(); from += SLICE) {
            List<String> args = new ArrayList<>();
            args.add("gone");
            args.addAll(gone.subList(from, Math.min(gone.size(), from + SLICE)));
            this.redis.execute(RESTORE_PLACES, placeKeys, args.toArray());
        }
        writePairs(placeKeys, "entry", sale.entries().entrySet().stream()
            .map(entry -> List.of(Long.toString(entry.getValue()), entry.getKey()))
            .toList());
        writeShuffled(placeKeys, sale);
        writePairs(placeKeys, "booking", sale.standingBookings().entrySet().stream()
            .map(entry -> List.of(entry.getKey(), entry.getValue()))
            .toList());
        // the log's holds replace what Redis kept: a release it lost must not keep a user held. Nobody is admitted
        // meanwhile, as the line is stamped for its new process only at the end (FINISH_RESTORE)
        this.redis.delete(keys.held());
        if (!sale.held.isEmpty()) {
            this.redis.opsForSet().add(keys.held(), sale.held.toArray(String[]::new));
        }
        Long stock = sale.stockLeft();
        this.redis.execute(RESTORE_STOCK, List.of(keys.stock(), keys.stats()), Long.toString(sale.bookedUnits()),
                stock == null ? "" : stock.toString(),
                sale.stock == null ? "" : sale.stock.available() + ":" + sale.stock.bookedUnits());
        QueueSettings settings = sale.settings;
        if (settings != null) {
            // A Redis that kept older settings lost the last change (it was published before it was saved); one that
            // lost everything may have been given settings since the loss, which are newer than the log read here.
            Optional<QueueSettings> held = this.queues.findSettings(productId);
            if (held.isEmpty() || (!foundEmpty && !held.get().equals(settings)) || sale.deletedAt != null) {
                this.queues.save(productId, settings);
            }
            if (sale.deletedAt != null) {
                // the steps drain it again: the line's replay tells its enters EXPIRED
                this.queues.markDeleted(productId, sale.deletedAt);
            }
        }
        this.redis.execute(FINISH_RESTORE, List.of(keys.stats()));
    }

    /**
     * A fair start's early entrants back where the opening put them, before the line's replay would put them in
     * arrival order; after gone and entries, which they must not override.
     */
    private void writeShuffled(List<String> keys, SaleLedger.ProductSale sale) {
        QueueSettings settings = sale.settings;
        if (sale.shuffleSeed == null || settings == null || settings.opensAt() == null) {
            return;
        }
        List<String> users = new ArrayList<>(sale.shuffled);
        for (int from = 0; from < users.size(); from += SLICE) {
            List<String> args = new ArrayList<>(List.of("shuffled", sale.shuffleSeed, settings.opensAt().toString(),
                    settings.abandonAfterSeconds() != null ? "1" : "0"));
            args.addAll(users.subList(from, Math.min(users.size(), from + SLICE)));
            this.redis.execute(RESTORE_PLACES, keys, args.toArray());
        }
    }

    private void writePairs(List<String> keys, String kind, Collection<List<String>> pairs) {
        List<List<String>> all = new ArrayList<>(pairs);
        for (int from = 0; from < all.size(); from += SLICE) {
            List<String> args = new ArrayList<>();
            args.add(kind);
            all.subList(from, Math.min(all.size(), from + SLICE)).forEach(args::addAll);
            this.redis.execute(RESTORE_PLACES, keys, args.toArray());
        }
    }
}
