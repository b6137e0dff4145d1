package io.queuegate.gate;

import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.testing.UnrelayedChanges;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** consume_admission.lua and release_reservation.lua, run with fixed clocks against the real Redis. */
class ConsumeAdmissionScriptTests extends GateRedisTestSupport {

    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> CONSUME = QueueScripts.of("consume_admission", List.class);

    private static final long EXPIRES = NOW + 60_000;

    /** The run_id of the Redis process that holds the key given (on a cluster, the node of its slot). */
    private static final RedisScript<String> RUN_ID = RedisScript
        .of("return string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')", String.class);

    @Test
    void reservesAnAdmittedTokenWhenStockSuffices() {
        String token = admittedWithStock("alice", EXPIRES, 5);

        List<String> reply = consume(token, 2, NOW, this.product + "-b1", "{\"booking\":1}");

        assertThat(reply).containsExactly("RESERVED", Long.toString(EXPIRES), "3");
        assertThat(entryScore(token)).isNull();
        assertThat(gone()).as("a used place is gone for good").containsExactly("alice");
        assertThat(stockValue()).isEqualTo("3");
        assertThat(bookings()).containsExactly(Map.entry(this.product + "-b1", "{\"booking\":1}"));
        assertThat(stat("consumedTotal")).isEqualTo(1);
        assertThat(stat("expiredTotal")).isZero();
        assertThat(audit()).singleElement().satisfies((change) -> assertThat(change)
            .containsEntry("type", "CONSUMED")
            .containsEntry("users", userNamedBy(token))
            .containsEntry("at", Long.toString(NOW))
            .containsEntry("bookingId", this.product + "-b1")
            .containsEntry("quantity", "2"));
    }

    @Test
    void theWrapperReservesTheLastUnitsAndRecordsTheBooking() {
        String token = admittedWithStock("alice", EXPIRES, 3);

        Reservation reservation = this.gate.reserve(this.product, token, 3, NOW);

        assertThat(reservation.productId()).isEqualTo(this.product);
        assertThat(reservation.userId()).isEqualTo("alice");
        assertThat(reservation.quantity()).isEqualTo(3);
        assertThat(reservation.token()).isEqualTo(token);
        assertThat(reservation.entryExpiresAt()).isEqualTo(EXPIRES);
        assertThat(reservation.bookingId()).startsWith(this.product + "-");
        assertThat(stockValue()).isEqualTo("0");
        assertThat(entryScore(token)).isNull();
        assertThat(bookings()).containsOnlyKeys(reservation.bookingId());
        assertThat(this.bookingLookup.find(reservation.bookingId())).contains(new BookingRecord(
                reservation.bookingId(), this.product, "alice", 3, reservation.bookedAt()));
        assertThat(stat("consumedTotal")).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(longs = { 0, -1, -60_000 })
    void anEntryWhoseTimeRanOutIsNotAdmittedAndRemoved(long offsetFromNow) {
        String token = admittedWithStock("late", NOW + offsetFromNow, 5);

        List<String> reply = consume(token, 1, NOW, this.product + "-b1", "{}");

        assertThat(reply).containsExactly("NOT_ADMITTED");
        assertThat(entryScore(token)).isNull();
        assertThat(gone()).containsExactly("late");
        assertThat(stockValue()).isEqualTo("5");
        assertThat(bookings()).isEmpty();
        assertThat(stat("expiredTotal")).isEqualTo(1);
        assertThat(stat("consumedTotal")).isZero();
        assertThat(audit()).singleElement().satisfies((change) -> assertThat(change)
            .containsEntry("type", "EXPIRED")
            .containsEntry("users", userNamedBy(token))
            .containsEntry("at", Long.toString(NOW)));
    }

    @Test
    void anEntryExpiringOneMillisecondLaterIsStillAdmitted() {
        String token = admittedWithStock("just-in-time", NOW + 1, 1);

        assertThat(consume(token, 1, NOW, this.product + "-b1", "{}")).containsExactly("RESERVED",
                Long.toString(NOW + 1), "0");
    }

    @Test
    void anAbsentTokenIsNotAdmittedAndChangesNothing() {
        String other = token("other");
        admit(other, EXPIRES);
        stock(5);

        List<String> reply = consume(token("stranger"), 1, NOW, this.product + "-b1", "{}");

        assertThat(reply).containsExactly("NOT_ADMITTED");
        assertThat(entries()).containsExactly(Map.entry(userNamedBy(other), (double) EXPIRES));
        assertThat(stockValue()).isEqualTo("5");
        assertNothingRecorded();
    }

    @Test
    void shortStockIsSoldOutAndLeavesTheTokenUsable() {
        String token = admittedWithStock("bob", EXPIRES, 1);

        List<String> reply = consume(token, 2, NOW, this.product + "-b1", "{}");

        assertThat(reply).containsExactly("SOLD_OUT", "1");
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        assertThat(stockValue()).isEqualTo("1");
        assertNothingRecorded();

        // through the wrapper: 409 sold_out, and a smaller quantity still goes through with the same token
        assertThatExceptionOfType(GateRejectedException.class)
            .isThrownBy(() -> this.gate.reserve(this.product, token, 2, NOW))
            .satisfies((ex) -> {
                assertThat(ex.code()).isEqualTo(ProblemCodes.SOLD_OUT);
                assertThat(ex.status()).isEqualTo(HttpStatus.CONFLICT);
            });
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        Reservation reservation = this.gate.reserve(this.product, token, 1, NOW);
        assertThat(reservation.quantity()).isEqualTo(1);
        assertThat(stockValue()).isEqualTo("0");
        assertThat(entryScore(token)).isNull();
    }

    /**
     * A Redis restarted from an older snapshot may have lost a booking: the token would pass again and its units be
     * sold twice. Until the sale is restored (the line stamped with the new process) nothing is taken: 503.
     */
    @Test
    void aProductLastWrittenByAnotherRedisProcessTakesNothingUntilRestored() {
        String token = token("carol");
        admit(token, EXPIRES);
        stock(5);
        redis.opsForHash().put(this.keys.stats(), "run", "a-process-before-the-restart");

        assertUnavailable(token, "RESTORING");
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        assertThat(stockValue()).isEqualTo("5");
        assertThat(bookings()).isEmpty();

        redis.opsForHash().put(this.keys.stats(), "run", redis.execute(RUN_ID, List.of(this.keys.stats())));
        assertThat(this.gate.reserve(this.product, token, 1, NOW).quantity()).isEqualTo(1);
        assertThat(stockValue()).isEqualTo("4");
    }

    @Test
    void aMissingStockKeyIsSoldOut() {
        String token = token("carol");
        admit(token, EXPIRES);

        List<String> reply = consume(token, 1, NOW, this.product + "-b1", "{}");

        assertThat(reply).containsExactly("SOLD_OUT", "0");
        assertThat(redis.hasKey(this.keys.stock())).isFalse();
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        assertNothingRecorded();
    }

    @Test
    void releaseRestoresStockAndTokenOnceAndOnlyOnce() {
        String token = admittedWithStock("dave", EXPIRES, 10);
        Reservation reservation = this.gate.reserve(this.product, token, 3, NOW);
        assertThat(stockValue()).isEqualTo("7");
        assertThat(entryScore(token)).isNull();

        assertThat(this.gate.release(reservation)).isTrue();

        assertThat(stockValue()).isEqualTo("10");
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        assertThat(gone()).as("back in entry, so no longer gone").isEmpty();
        assertThat(bookings()).isEmpty();
        assertThat(stat("consumedTotal")).isZero();
        assertThat(audit()).extracting((change) -> change.get("type")).containsExactly("CONSUMED", "RESTORED");
        assertThat(audit().getLast()).containsEntry("users", userNamedBy(token))
            .containsEntry("bookingId", reservation.bookingId());

        Map<String, Double> entries = entries();
        Map<Object, Object> stats = stats();
        List<Map<Object, Object>> audit = audit();
        assertThat(this.gate.release(reservation)).isFalse();
        assertThat(stockValue()).isEqualTo("10");
        assertThat(entries()).isEqualTo(entries);
        assertThat(bookings()).isEmpty();
        assertThat(stats()).isEqualTo(stats);
        assertThat(audit()).isEqualTo(audit);

        // the token is usable again
        Reservation again = this.gate.reserve(this.product, token, 1, NOW);
        assertThat(again.entryExpiresAt()).isEqualTo(EXPIRES);
        assertThat(stockValue()).isEqualTo("9");
    }

    @Test
    void releaseNeverOverwritesAnEntryTheTokenHoldsAgain() {
        String token = admittedWithStock("erin", EXPIRES, 4);
        Reservation reservation = this.gate.reserve(this.product, token, 1, NOW);
        admit(token, EXPIRES + 5_000);

        assertThat(this.gate.release(reservation)).isTrue();

        assertThat(entryScore(token)).isEqualTo((double) (EXPIRES + 5_000));
        assertThat(stockValue()).isEqualTo("4");
        assertThat(bookings()).isEmpty();
    }

    @Test
    void releasingAReservationThatNeverExistedChangesNothing() {
        stock(4);
        Reservation unknown = new Reservation(this.product + "-nope", this.product, "frank", 2, token("frank"),
                EXPIRES, NOW);

        assertThat(this.gate.release(unknown)).isFalse();

        assertThat(stockValue()).isEqualTo("4");
        assertThat(entries()).isEmpty();
        assertThat(stats()).isEmpty();
        assertThat(audit()).isEmpty();
    }

    /**
     * The audit stream is trimmed only by the relay: at the gate's bound a reservation takes nothing and writes
     * nothing (503), so no change is dropped; a release, which undoes what was taken, is never refused.
     */
    @Test
    void atTheAuditBoundNothingIsReservedAndAReleaseStillGoesThrough() {
        String token = admittedWithStock("gina", EXPIRES, 5);
        String other = token("hank");
        admit(other, EXPIRES);
        Reservation earlier = this.gate.reserve(this.product, other, 1, NOW);
        UnrelayedChanges.add(redis, this.keys.audit(), (int) AUDIT_BACKLOG_LIMIT - 1);
        List<Map<Object, Object>> audit = audit();
        assertThat(audit).hasSize((int) AUDIT_BACKLOG_LIMIT);

        assertUnavailable(token, "AUDIT_BACKLOG");
        assertThat(entryScore(token)).isEqualTo((double) EXPIRES);
        assertThat(stockValue()).isEqualTo("4");
        assertThat(bookings()).containsOnlyKeys(earlier.bookingId());
        assertThat(audit()).isEqualTo(audit);

        assertThat(this.gate.release(earlier)).isTrue();
        assertThat(stockValue()).isEqualTo("5");
        assertThat(audit()).hasSize((int) AUDIT_BACKLOG_LIMIT + 1);
        assertThat(audit().getLast()).containsEntry("type", "RESTORED").containsEntry("bookingId", earlier.bookingId());
    }

    /** Once the stream held 100,000 changes, every write trimmed the oldest; the relay is the only trimmer now. */
    @Test
    void noChangeIsTrimmedHoweverLongTheRelayIsAway() {
        String token = admittedWithStock("ivan", EXPIRES, 5);
        UnrelayedChanges.add(redis, this.keys.audit(), 100_200);
        String first = UnrelayedChanges.firstId(redis, this.keys.audit());

        assertThat(consume(token, 1, NOW, this.product + "-b1", "{}", 200_000)).first().isEqualTo("RESERVED");
        Reservation reservation = new Reservation(this.product + "-b1", this.product, "ivan", 1, token, EXPIRES, NOW);
        assertThat(this.gate.release(reservation)).isTrue();

        assertThat(redis.opsForStream().size(this.keys.audit())).isEqualTo(100_202);
        assertThat(UnrelayedChanges.firstId(redis, this.keys.audit())).isEqualTo(first);
    }

    /**
     * The script answers {@code status}, and the wrapper, asked the same, refuses with 503 and a Retry-After: a refusal
     * that passes, not a verdict on the token.
     */
    private void assertUnavailable(String token, String status) {
        assertThat(consume(token, 1, NOW, this.product + "-b1", "{}")).containsExactly(status);
        assertThatExceptionOfType(ApiException.class)
            .isThrownBy(() -> this.gate.reserve(this.product, token, 1, NOW))
            .satisfies((ex) -> {
                assertThat(ex.code()).isEqualTo(ProblemCodes.UNAVAILABLE);
                assertThat(ex.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                assertThat(ex.retryAfter()).isNotNull();
            });
    }

    /** No booking, no counter and no audit record: the script refused before its first write. */
    private void assertNothingRecorded() {
        assertThat(bookings()).isEmpty();
        assertThat(stats()).isEmpty();
        assertThat(audit()).isEmpty();
    }

    private List<String> consume(String token, int quantity, long now, String bookingId, String record) {
        return consume(token, quantity, now, bookingId, record, AUDIT_BACKLOG_LIMIT);
    }

    @SuppressWarnings("unchecked")
    private List<String> consume(String token, int quantity, long now, String bookingId, String record,
            long auditBacklogLimit) {
        List<Object> reply = redis.execute(CONSUME,
                List.of(this.keys.entry(), this.keys.stock(), this.keys.bookings(), this.keys.stats(),
                        this.keys.audit(), this.keys.reservations(), this.keys.gone(), this.keys.reservedAt()),
                userNamedBy(token), Integer.toString(quantity), Long.toString(now), bookingId, record,
                Long.toString(auditBacklogLimit));
        assertThat(reply).isNotNull();
        return reply.stream().map(String::valueOf).toList();
    }

    /** The arrangement most cases start from: a token admitted until {@code expiresAt} and stock on sale. */
    private String admittedWithStock(String userId, long expiresAt, long units) {
        String token = token(userId);
        admit(token, expiresAt);
        stock(units);
        return token;
    }
}
