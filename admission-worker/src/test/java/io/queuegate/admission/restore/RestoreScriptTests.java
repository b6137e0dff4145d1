package io.queuegate.admission.restore;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The restore's scripts against the real Redis on 127.0.0.1:6379, or the cluster {@code scripts/test-on-cluster.sh}
 * names (shared: a random product, only its keys deleted):
 * what they write on an empty Redis, what they add to a Redis that kept an older state of the sale, and that they
 * change nothing a Redis still holds.
 */
class RestoreScriptTests {

    private static final RedisScript<Long> RESTORE_PLACES = QueueScripts.of("restore_places", Long.class);

    private static final RedisScript<Long> BEGIN_RESTORE = QueueScripts.of("begin_restore", Long.class);

    private static final RedisScript<Long> RESTORE_STOCK = QueueScripts.of("restore_stock", Long.class);

    private static final RedisScript<Long> FINISH_RESTORE = QueueScripts.of("finish_restore", Long.class);

    /** The run_id of the Redis process that holds the key given (on a cluster, the node of its slot). */
    private static final RedisScript<String> RUN_ID = RedisScript
        .of("return string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')", String.class);

    private static StringRedisTemplate redis;

    private QueueKeys keys;

    @BeforeAll
    static void connect() {
        redis = TestRedis.template();
    }

    @BeforeEach
    void newProduct() {
        this.keys = QueueKeys.of(TestRedis.unusedProduct(redis));
    }

    @AfterEach
    void forget() {
        redis.delete(this.keys.all());
    }

    private long places(String... args) {
        return redis.execute(RESTORE_PLACES,
                List.of(this.keys.waiting(), this.keys.entry(), this.keys.gone(), this.keys.bookings(),
                        this.keys.stock(), this.keys.stats(), this.keys.seen()),
                (Object[]) args);
    }

    private long stock(long booked, String left) {
        return stock(booked, left, left.isEmpty() ? "" : left + ":" + booked);
    }

    private long stock(long booked, String left, String setting) {
        return redis.execute(RESTORE_STOCK, List.of(this.keys.stock(), this.keys.stats()), Long.toString(booked),
                left, setting);
    }

    @Test
    void aGoneUserLeavesEveryPlaceAndIsNeverGivenAnEntry() {
        redis.opsForZSet().add(this.keys.waiting(), "a", 1);
        redis.opsForZSet().add(this.keys.entry(), "b", 9_000);

        assertThat(places("gone", "a", "b")).isEqualTo(2);
        assertThat(places("entry", "9000", "a", "9500", "c")).isEqualTo(1);
        assertThat(places("entry", "9000", "a", "9500", "c")).as("repeated").isZero();

        assertThat(redis.opsForZSet().size(this.keys.waiting())).isZero();
        assertThat(redis.opsForZSet().range(this.keys.entry(), 0, -1)).containsExactly("c");
        assertThat(redis.opsForZSet().score(this.keys.entry(), "c")).isEqualTo(9_500.0);
        assertThat(redis.opsForSet().members(this.keys.gone())).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void earlyEntrantsGoBackWhereTheOpeningPutThemAheadOfTheReplay() {
        // an older Redis: the opening had not re-placed anyone yet; e5 has left since, e6 holds an entry, e7 is not in
        redis.opsForZSet().add(this.keys.waiting(), "e1", 1);
        redis.opsForZSet().add(this.keys.waiting(), "e2", 2);
        redis.opsForZSet().add(this.keys.waiting(), "e3", 3);
        redis.opsForZSet().add(this.keys.waiting(), "e4", 4);
        redis.opsForZSet().add(this.keys.waiting(), "late-1", 5);
        redis.opsForSet().add(this.keys.gone(), "e5");
        redis.opsForZSet().add(this.keys.entry(), "e6", 9_000);

        assertThat(places("shuffled", "seed-1", "1000", "1", "e1", "e2", "e3", "e4", "e5", "e6", "e7")).isEqualTo(5);
        assertThat(places("shuffled", "seed-1", "1000", "1", "e1", "e2", "e3", "e4", "e5", "e6", "e7"))
            .as("repeated").isZero();

        List<String> early = Stream.of("e1", "e2", "e3", "e4", "e7")
            .sorted(Comparator.comparing((String user) -> fairHash("seed-1", user)).thenComparing(user -> user))
            .toList();
        List<String> expected = new ArrayList<>(early);
        expected.add("late-1");
        assertThat(redis.opsForZSet().range(this.keys.waiting(), 0, -1)).containsExactlyElementsOf(expected);
        assertThat(redis.opsForZSet().score(this.keys.entry(), "e6")).isEqualTo(9_000.0);
        assertThat(redis.opsForHash().multiGet(this.keys.stats(), List.of("seed", "openedFor")))
            .containsExactly("seed-1", "1000");
        assertThat(redis.opsForZSet().range(this.keys.seen(), 0, -1)).containsExactlyInAnyOrderElementsOf(early);
    }

    /** The first 52 bits of SHA1(seed:user), the order a fair start's opening draws (docs/DESIGN.md, "Fair start"). */
    private static long fairHash(String seed, String user) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                .digest((seed + ":" + user).getBytes(StandardCharsets.UTF_8));
            return Long.parseLong(HexFormat.of().formatHex(digest).substring(0, 13), 16);
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Test
    void anAdmittedUserFoundWaitingGetsTheEntryInstead() {
        redis.opsForZSet().add(this.keys.waiting(), "a", 1);
        assertThat(places("entry", "9000", "a")).isEqualTo(1);
        assertThat(redis.opsForZSet().size(this.keys.waiting())).isZero();
        assertThat(redis.opsForZSet().score(this.keys.entry(), "a")).isEqualTo(9_000.0);
    }

    @Test
    void aBookingAlreadyThereIsKept() {
        redis.opsForHash().put(this.keys.bookings(), "1-x", "kept");
        assertThat(places("booking", "1-x", "other", "1-y", "new")).isEqualTo(1);
        assertThat(redis.opsForHash().entries(this.keys.bookings())).containsEntry("1-x", "kept")
            .containsEntry("1-y", "new");
    }

    @Test
    void anEmptyRedisGetsTheStockOfTheLogUnlessOneWasSetSince() {
        assertThat(stock(3, "7")).isEqualTo(1);
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("7");
        assertThat(redis.opsForHash().get(this.keys.stats(), "bookedUnits")).isEqualTo("3");
        assertThat(stock(3, "7")).as("repeated").isZero();
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("7");

        forget();
        redis.opsForValue().set(this.keys.stock(), "40");
        assertThat(stock(3, "7")).isZero();
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("40");
    }

    @Test
    void aBookingARedisThatKeptACountLostTakesItsUnitsOffTheStock() {
        redis.opsForValue().set(this.keys.stock(), "10");
        redis.opsForHash().put(this.keys.stats(), "bookedUnits", "5");
        redis.opsForHash().put(this.keys.bookings(), "1-x", "{\"quantity\":5}");

        assertThat(places("booking", "1-x", "{\"quantity\":5}", "1-y", "{\"quantity\":3}")).isEqualTo(1);
        assertThat(places("booking", "1-x", "{\"quantity\":5}", "1-y", "{\"quantity\":3}")).as("repeated")
            .isZero();
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("7");
        assertThat(redis.opsForHash().get(this.keys.stats(), "bookedUnits")).isEqualTo("8");

        assertThat(places("booking", "1-z", "{\"quantity\":9}")).isEqualTo(1);
        assertThat(redis.opsForValue().get(this.keys.stock())).as("never below zero").isEqualTo("0");
        assertThat(redis.opsForHash().get(this.keys.stats(), "bookedUnits")).isEqualTo("17");
    }

    @Test
    void onARedisThatLostTheSaleABookingTakesNoUnitsTheStockComesFromTheLog() {
        assertThat(places("booking", "1-y", "{\"quantity\":3}")).isEqualTo(1);
        assertThat(redis.hasKey(this.keys.stock())).isFalse();
        assertThat(redis.opsForHash().hasKey(this.keys.stats(), "bookedUnits")).isFalse();
    }

    @Test
    void aRedisThatKeptTheLastStockSettingKeepsItsStock() {
        redis.opsForValue().set(this.keys.stock(), "7");
        redis.opsForHash().putAll(this.keys.stats(), Map.of("bookedUnits", "8", "stockSetting", "10:5"));

        assertThat(stock(8, "7", "10:5")).isZero();
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("7");
    }

    @Test
    void aRedisThatLostTheLastStockSettingGetsItMinusTheUnitsBookedSince() {
        redis.opsForValue().set(this.keys.stock(), "7");
        redis.opsForHash().putAll(this.keys.stats(), Map.of("bookedUnits", "8", "stockSetting", "10:5"));

        // the log's last setting: 30 units when 6 were booked; Redis counts 8 booked now (its own and the log's)
        assertThat(stock(7, "29", "30:6")).isEqualTo(1);
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("28");
        assertThat(redis.opsForHash().get(this.keys.stats(), "stockSetting")).isEqualTo("30:6");
        assertThat(stock(7, "29", "30:6")).as("repeated").isZero();
        assertThat(redis.opsForValue().get(this.keys.stock())).isEqualTo("28");
    }

    @Test
    void finishingARestoreStampsTheLineWithTheRedisProcessThatServesIt() {
        redis.opsForHash().put(this.keys.stats(), "run", "a-process-before-the-restart");
        assertThat(redis.execute(FINISH_RESTORE, List.of(this.keys.stats()))).isEqualTo(1);
        String run = redis.execute(RUN_ID, List.of(this.keys.stats()));
        assertThat(redis.opsForHash().get(this.keys.stats(), "run")).isEqualTo(run);
    }

    private long begin(String epoch, boolean foundEmpty) {
        return redis.execute(BEGIN_RESTORE, List.of(this.keys.waiting(), this.keys.seen(), this.keys.stats()), epoch,
                foundEmpty ? "1" : "0");
    }

    @Test
    void onARedisFoundEmptyTheFirstRestoreDropsWhatStaleWritesPutInTheLine() {
        redis.opsForZSet().add(this.keys.waiting(), "stale", 1);
        redis.opsForZSet().add(this.keys.seen(), "stale", 1);
        redis.opsForHash().putAll(this.keys.stats(), Map.of("applied:queuegate.entries:3", "41", "seq", "1",
                "enteredTotal", "1", "bookedUnits", "4"));

        assertThat(begin("e2", true)).isEqualTo(1);
        assertThat(redis.hasKey(this.keys.waiting())).isFalse();
        assertThat(redis.hasKey(this.keys.seen())).isFalse();
        assertThat(redis.opsForHash().entries(this.keys.stats()))
            .isEqualTo(Map.of("bookedUnits", "4", "restoredFor", "e2"));

        // a second restore for the same epoch, by a worker that may be replaying already, drops nothing
        redis.opsForZSet().add(this.keys.waiting(), "replayed", 1);
        assertThat(begin("e2", true)).isZero();
        assertThat(redis.opsForZSet().range(this.keys.waiting(), 0, -1)).containsExactly("replayed");
    }

    @Test
    void aRedisThatKeptItsIdKeepsItsLine() {
        redis.opsForZSet().add(this.keys.waiting(), "kept", 1);
        assertThat(begin("e3", false)).isEqualTo(1);
        assertThat(redis.opsForZSet().range(this.keys.waiting(), 0, -1)).containsExactly("kept");
    }

    @Test
    void withoutAStockSettingNoStockIsWritten() {
        assertThat(stock(0, "")).isZero();
        assertThat(redis.hasKey(this.keys.stock())).isFalse();
    }
}
