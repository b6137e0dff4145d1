package io.queuegate.ingest.front;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.ingest.front.PerClientLimits.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerClientLimitsTests {

    @Test
    void aClientPastItsBurstWaitsForTheRefillAndItsOtherKindAndOtherClientsAreUnaffected() {
        PerClientLimits limits = new PerClientLimits(new PerClientProperties(true, 3, 6, 2, 1, 1000),
                new SimpleMeterRegistry());
        InetAddress one = address("203.0.113.1");
        InetAddress other = address("203.0.113.2");
        for (int i = 0; i < 3; i++) {
            assertThat(limits.refusal(Kind.ENTER, one)).as("enter %d", i).isNull();
        }
        Duration wait = limits.refusal(Kind.ENTER, one);
        // six a minute: the next one in about ten seconds
        assertThat(wait).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10));
        assertThat(limits.refusal(Kind.POLL, one)).isNull();
        assertThat(limits.refusal(Kind.POLL, one)).isNull();
        assertThat(limits.refusal(Kind.POLL, one)).isNotNull();
        assertThat(limits.refusal(Kind.ENTER, other)).isNull();
        assertThat(limits.refusal(Kind.POLL, other)).isNull();
    }

    @Test
    void anIpv6ClientIsItsSlash64() {
        PerClientLimits limits = new PerClientLimits(new PerClientProperties(true, 2, 6, 2, 1, 1000),
                new SimpleMeterRegistry());
        assertThat(limits.refusal(Kind.ENTER, address("2001:db8:1:2::1"))).isNull();
        assertThat(limits.refusal(Kind.ENTER, address("2001:db8:1:2:ffff:ffff:ffff:fffe"))).isNull();
        assertThat(limits.refusal(Kind.ENTER, address("2001:db8:1:2:abcd::7"))).as("a third address of the /64")
            .isNotNull();
        assertThat(limits.refusal(Kind.ENTER, address("2001:db8:1:3::1"))).as("the next /64").isNull();
        assertThat(limits.refusal(Kind.ENTER, address("0.0.0.1"))).isNull();
        assertThat(PerClientLimits.keyOf(address("::1"))).isNotZero()
            .isNotEqualTo(PerClientLimits.keyOf(address("0.0.0.1")));
        assertThat(PerClientLimits.keyOf(address("0.0.0.0"))).isNotZero();
    }

    @Test
    void aFullTableForgetsTheClientsNearestToAFullAllowance() {
        // one group of eight slots: the ninth client takes the place of the one that has the most left
        PerClientLimits limits = new PerClientLimits(new PerClientProperties(true, 2, 1, 2, 1, 8),
                new SimpleMeterRegistry());
        for (int i = 1; i <= 8; i++) {
            InetAddress client = address("198.51.100." + i);
            assertThat(limits.refusal(Kind.ENTER, client)).isNull();
            if (i != 5) {
                assertThat(limits.refusal(Kind.ENTER, client)).isNull();
                assertThat(limits.refusal(Kind.ENTER, client)).as("client %d, past its burst", i).isNotNull();
            }
        }
        assertThat(limits.clients()).isEqualTo(8);

        assertThat(limits.refusal(Kind.ENTER, address("198.51.100.9"))).isNull();

        assertThat(limits.clients()).isEqualTo(8);
        for (int i = 1; i <= 8; i++) {
            if (i != 5) {
                assertThat(limits.refusal(Kind.ENTER, address("198.51.100." + i))).as("client %d, remembered", i)
                    .isNotNull();
            }
        }
        assertThat(limits.refusal(Kind.ENTER, address("198.51.100.5"))).as("forgotten, so a full allowance again")
            .isNull();
    }

    @Test
    void racingRequestsOfOneClientTakeExactlyItsBurst() throws Exception {
        PerClientLimits limits = new PerClientLimits(new PerClientProperties(true, 500, 1, 60, 10, 1000),
                new SimpleMeterRegistry());
        InetAddress client = address("203.0.113.77");
        java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        try (var threads = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < 200; i++) {
                        if (limits.refusal(Kind.ENTER, client) == null) {
                            taken.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            start.countDown();
        }
        // 1,600 tries at one a minute after the burst: the burst and nothing more
        assertThat(taken).hasValue(500);
    }

    @Test
    void aMillionDistinctAddressesCostBoundedMemory() {
        int bound = 10_000;
        PerClientLimits limits = new PerClientLimits(new PerClientProperties(true, 30, 30, 60, 10, bound),
                new SimpleMeterRegistry());
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc(memory);
        for (int i = 0; i < 1_000_000; i++) {
            byte[] address = {(byte) 10, (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
            assertThat(limits.refusal(Kind.ENTER, address(address))).isNull();
        }
        assertThat(limits.clients()).isLessThanOrEqualTo(bound);
        long grown = usedAfterGc(memory) - before;
        // the table of 10,000 clients is 240 KB, made before; a million kept would take hundreds of megabytes
        assertThat(grown).as("heap grown by a million addresses").isLessThan(32L << 20);
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        }
        catch (UnknownHostException ex) {
            throw new IllegalArgumentException(ex);
        }
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        }
        catch (UnknownHostException ex) {
            throw new IllegalArgumentException(ex);
        }
    }
}
