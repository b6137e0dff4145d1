package io.queuegate.ingest.status;

import io.queuegate.core.queue.LineConditions;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** When a client polls next, and how long its wait looks. */
class PollPolicyTests {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void pendingPollsEverySecond() {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.PENDING, 0, 0, 100), NOW)).isEqualTo(1_000L);
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.PENDING, 0, 0, 0), NOW)).isEqualTo(1_000L);
    }

    @Test
    void expiredNeverPollsAgain() {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.EXPIRED, 0, 0, 100), NOW)).isNull();
    }

    @ParameterizedTest(name = "position {0} at {1}/s waits {2} s")
    @CsvSource({
            "1, 1, 1",
            "1, 100, 1",
            "100, 100, 1",
            "101, 100, 2",
            "199, 100, 2",
            "200, 100, 2",
            "201, 100, 3",
            "7, 2, 4",
            "1000000, 1, 1000000",
            "1000000, 1000000, 1" })
    void etaRoundsUp(long position, int rate, long seconds) {
        assertThat(PollPolicy.etaSeconds(new TokenState(TokenStatus.WAITING, position, 0, rate))).isEqualTo(seconds);
    }

    @Test
    void etaIsUnknownWithoutARate() {
        assertThat(PollPolicy.etaSeconds(new TokenState(TokenStatus.WAITING, 10, 0, 0))).isNull();
        assertThat(PollPolicy.etaSeconds(new TokenState(TokenStatus.WAITING, 10, 0, -5))).isNull();
    }

    @ParameterizedTest(name = "position {0} at {1}/s polls after {2} ms")
    @CsvSource({
            // a quarter of the eta, at least 1 s and at most 30 s
            "1, 100, 1000",
            "400, 100, 1000",
            "401, 100, 1250",
            "2000, 100, 5000",
            "11900, 100, 29750",
            "12000, 100, 30000",
            "12001, 100, 30000",
            "1000000, 1, 30000" })
    void waitingPollsAtAQuarterOfTheEtaWithinBounds(long position, int rate, long pollAfter) {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.WAITING, position, 0, rate), NOW))
            .isEqualTo(pollAfter);
    }

    @Test
    void waitingWithoutARatePollsRarely() {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.WAITING, 5, 0, 0), NOW)).isEqualTo(30_000L);
    }

    @ParameterizedTest(name = "{0} ms left polls after {1} ms")
    @CsvSource({
            // half the time left, at least 1 s and at most 5 s: the stock can run out under an admission
            "120000, 5000",
            "10000, 5000",
            "9998, 4999",
            "4000, 2000",
            "2000, 1000",
            "1999, 1000",
            "1, 1000",
            "0, 1000",
            "-5000, 1000" })
    void admittedPollsAtHalfTheTimeLeftWithinBoundsWhetherAvailableOrSoldOut(long left, long pollAfter) {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.AVAILABLE, 0, NOW + left, 100), NOW))
            .isEqualTo(pollAfter);
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.SOLD_OUT, 0, NOW + left, 100), NOW))
            .isEqualTo(pollAfter);
    }

    @ParameterizedTest(name = "position {0} at {1}/s waits {2} s")
    @CsvSource({
            // a measured pace that is not a whole number
            "5, 2.5, 2",
            "6, 2.5, 3",
            "50, 2.5, 20",
            "1, 0.1, 10" })
    void etaFollowsTheMeasuredPace(long position, double pace, long seconds) {
        assertThat(PollPolicy.etaSeconds(waiting(position, new LineConditions(pace, 0, 0, 0)))).isEqualTo(seconds);
    }

    @Test
    void soldOutPollsRarely() {
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.SOLD_OUT, 0, 0, 100), NOW))
            .isEqualTo(PollPolicy.SOLD_OUT_POLL_MS)
            .isGreaterThan(PollPolicy.pollAfterMs(new TokenState(TokenStatus.WAITING, 1, 0, 100), NOW));
    }

    @ParameterizedTest(name = "{0} waiting, budget {1}/s")
    @CsvSource({ "1, 1", "10, 1", "1000, 100", "100000, 1000", "1000000, 1000", "1000000, 50000", "500, 10000" })
    void everyoneWaitingPollingAsToldStaysUnderTheBudgetAndTheWaitNeverShrinksWithPosition(long length, int budget) {
        LineConditions line = new LineConditions(100, budget, length, 0);
        double pollsPerSecond = 0;
        long previous = 0;
        for (long position = 1; position <= length; position++) {
            long after = PollPolicy.pollAfterMs(waiting(position, line), NOW);
            assertThat(after).as("position %d", position).isGreaterThanOrEqualTo(previous);
            previous = after;
            pollsPerSecond += 1000.0 / after;
        }
        assertThat(pollsPerSecond).isLessThanOrEqualTo(budget);
    }

    @Test
    void aBudgetLargeEnoughChangesNothing() {
        LineConditions line = new LineConditions(100, 1_000_000, 1_000, 0);
        for (long position : new long[] { 1, 400, 2_000, 12_000 }) {
            assertThat(PollPolicy.pollAfterMs(waiting(position, line), NOW))
                .isEqualTo(PollPolicy.pollAfterMs(new TokenState(TokenStatus.WAITING, position, 0, 100), NOW));
        }
    }

    @Test
    void withAbandonmentNobodyIsToldToWaitLongerThanAThirdOfIt() {
        LineConditions line = new LineConditions(100, 10, 1_000_000, 60);
        assertThat(PollPolicy.pollAfterMs(waiting(1_000_000, line), NOW)).isEqualTo(20_000L);
        assertThat(PollPolicy.pollAfterMs(new TokenState(TokenStatus.SOLD_OUT, 0, 0, -1, line), NOW))
            .isEqualTo(20_000L);
    }

    @Test
    void aPollFarSoonerThanToldIsTooSoonOnlyUnderABudget() {
        LineConditions budgeted = new LineConditions(100, 100, 1_000, 0);
        assertThat(PollPolicy.tooSoon(new TokenState(TokenStatus.WAITING, 10, 0, 100, budgeted), 1_000)).isTrue();
        assertThat(PollPolicy.tooSoon(new TokenState(TokenStatus.WAITING, 10, 0, 250, budgeted), 1_000)).isFalse();
        assertThat(PollPolicy.tooSoon(new TokenState(TokenStatus.WAITING, 10, 0, -1, budgeted), 1_000)).isFalse();
        LineConditions free = new LineConditions(100, 0, 0, 60);
        assertThat(PollPolicy.tooSoon(new TokenState(TokenStatus.WAITING, 10, 0, 0, free), 1_000)).isFalse();
    }

    @ParameterizedTest(name = "{0} ms before the opening polls after {1} ms")
    @CsvSource({ "3600000, 30000", "10000, 5000", "1000, 1000", "-500, 1000" })
    void beforeTheOpeningNobodyHasAPositionAndPollsAtHalfTheTimeLeft(long untilOpening, long pollAfter) {
        LineConditions line = new LineConditions(100, 0, 0, 0, NOW + untilOpening);
        TokenState before = waiting(0, line);

        assertThat(PollPolicy.etaSeconds(before)).isNull();
        assertThat(PollPolicy.pollAfterMs(before, NOW)).isEqualTo(pollAfter);
    }

    @Test
    void beforeTheOpeningUnderABudgetEveryoneIsToldWhatTheLastOfTheLineWouldBe() {
        LineConditions line = new LineConditions(100, 100, 10_000, 0, NOW + 1_000);

        assertThat(PollPolicy.pollAfterMs(waiting(0, line), NOW))
            .isEqualTo(PollPolicy.pollAfterMs(waiting(10_000, line), NOW))
            .isGreaterThan(10_000 * 1000 / 100);
    }

    @ParameterizedTest(name = "a stream at position {0}, the line measured at {1}/s, admitting up to {2}/s, is read after {3} ms")
    @CsvSource({
            // within a second's worth of the head: it may be admitted at the next step, whatever the measured pace
            "1, 0.01, 200, 100",
            "200, 0.01, 200, 100",
            // soonest admission 4 s away at 200/s: read again within half of it
            "1000, 0.01, 200, 2000",
            // far back: no longer apart than a poll ever is
            "100000, 50, 200, 30000",
            // a line that does not move: as a poll would be told
            "10, 0, 0, 30000" })
    void aStreamIsReadWithinHalfTheSoonestItsPlaceCanBeAdmitted(long position, double pace, double ceiling,
            long readAfter) {
        LineConditions line = new LineConditions(pace, 0, 0, 0, 0, pace, true, 0, ceiling);
        assertThat(PollPolicy.streamReadAfterMs(waiting(position, line), NOW, 100)).isEqualTo(readAfter);
    }

    @Test
    void aStreamIsNotReadSoonerThanThePollBudgetAllows() {
        LineConditions line = new LineConditions(50, 10, 100_000, 0, 0, 50, true, 0, 200);
        TokenState front = waiting(1, line);
        assertThat(PollPolicy.streamReadAfterMs(front, NOW, 100)).isGreaterThan(1_000);
    }

    private static TokenState waiting(long position, LineConditions line) {
        return new TokenState(TokenStatus.WAITING, position, 0, -1, line);
    }
}
