package io.queuegate.ingest.enter;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UsedProofsTests {

    private static final long NOW = 1_800_000_000L;

    @Test
    void aProofIsTakenOnceUntilItExpiresAndAgainOnceGivenBack() {
        UsedProofs used = new UsedProofs(1000);

        assertThat(used.take(42, NOW + 600, NOW)).isTrue();
        assertThat(used.take(42, NOW + 600, NOW + 599)).as("a replay").isFalse();
        assertThat(used.take(43, NOW + 600, NOW)).as("another proof").isTrue();

        used.giveBack(42);
        assertThat(used.take(42, NOW + 600, NOW)).as("given back: its enter was not accepted").isTrue();
        assertThat(used.take(42, NOW + 600, NOW + 601)).as("past its expiry it is refused as expired before").isTrue();
    }

    @Test
    void aFullGroupGivesUpTheProofNearestToItsExpiryNeverOneOfLater() {
        UsedProofs used = new UsedProofs(8);
        for (long id = 1; id <= 8; id++) {
            assertThat(used.take(id, NOW + 100 + id, NOW)).isTrue();
        }

        assertThat(used.take(9, NOW + 500, NOW)).isTrue();

        assertThat(used.take(1, NOW + 101, NOW)).as("the nearest to its expiry, given up").isTrue();
        for (long id = 3; id <= 9; id++) {
            assertThat(used.take(id, NOW + 500, NOW)).as("proof %d, still taken", id).isFalse();
        }
    }

    @Test
    void anExpiredProofMakesRoomFirst() {
        UsedProofs used = new UsedProofs(8);
        for (long id = 1; id <= 8; id++) {
            assertThat(used.take(id, id == 4 ? NOW + 10 : NOW + 900, NOW)).isTrue();
        }

        assertThat(used.take(9, NOW + 900, NOW + 20)).isTrue();

        for (long id : new long[] {1, 2, 3, 5, 6, 7, 8, 9}) {
            assertThat(used.take(id, NOW + 900, NOW + 20)).as("proof %d", id).isFalse();
        }
    }

    @Test
    void racingEntersWithOneProofTakeItOnce() throws Exception {
        UsedProofs used = new UsedProofs(500_000);
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        try (var threads = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                threads.submit(() -> {
                    start.await();
                    for (long id = 1; id <= 10_000; id++) {
                        if (used.take(id * 0x9E3779B97F4A7C15L, NOW + 600, NOW)) {
                            taken.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            start.countDown();
        }
        assertThat(taken).hasValue(10_000);
    }
}
