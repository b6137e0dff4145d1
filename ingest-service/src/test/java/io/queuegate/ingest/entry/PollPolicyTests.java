package io.queuegate.ingest.entry;

import io.queuegate.core.queue.EntryState;
import io.queuegate.core.queue.EntryStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** When a client polls next, and how long its wait looks. */
class PollPolicyTests {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void pendingPollsEverySecond() {
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.PENDING, 0, 0, 100), NOW)).isEqualTo(1_000L);
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.PENDING, 0, 0, 0), NOW)).isEqualTo(1_000L);
    }

    @Test
    void expiredNeverPollsAgain() {
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.EXPIRED, 0, 0, 100), NOW)).isNull();
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
        assertThat(PollPolicy.etaSeconds(new EntryState(EntryStatus.WAITING, position, 0, rate))).isEqualTo(seconds);
    }

    @Test
    void etaIsUnknownWithoutARate() {
        assertThat(PollPolicy.etaSeconds(new EntryState(EntryStatus.WAITING, 10, 0, 0))).isNull();
        assertThat(PollPolicy.etaSeconds(new EntryState(EntryStatus.WAITING, 10, 0, -5))).isNull();
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
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.WAITING, position, 0, rate), NOW))
            .isEqualTo(pollAfter);
    }

    @Test
    void waitingWithoutARatePollsRarely() {
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.WAITING, 5, 0, 0), NOW)).isEqualTo(30_000L);
    }

    @ParameterizedTest(name = "{0} ms left polls after {1} ms")
    @CsvSource({
            // half the time left, at least 1 s and at most 30 s
            "120000, 30000",
            "60000, 30000",
            "59998, 29999",
            "10000, 5000",
            "2000, 1000",
            "1999, 1000",
            "1, 1000",
            "0, 1000",
            "-5000, 1000" })
    void availablePollsAtHalfTheTimeLeftWithinBounds(long left, long pollAfter) {
        assertThat(PollPolicy.pollAfterMs(new EntryState(EntryStatus.AVAILABLE, 0, NOW + left, 100), NOW))
            .isEqualTo(pollAfter);
    }
}
