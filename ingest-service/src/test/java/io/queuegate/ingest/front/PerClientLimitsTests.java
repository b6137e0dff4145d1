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
    void onlyEntersPollsAndChallengesAreCounted() {
        assertThat(PerClientLimits.kindOf("POST", "/api/v1/queues/42/entries")).isEqualTo(Kind.ENTER);
        assertThat(PerClientLimits.kindOf("GET", "/api/v1/queues/42/entries/abc")).isEqualTo(Kind.POLL);
        assertThat(PerClientLimits.kindOf("GET", "/api/v1/queues/42/challenge")).isEqualTo(Kind.POLL);
        assertThat(PerClientLimits.kindOf("DELETE", "/api/v1/queues/42/entries/abc")).isNull();
        assertThat(PerClientLimits.kindOf("GET", "/api/v1/queues/42/entries/abc/more")).isNull();
        assertThat(PerClientLimits.kindOf("GET", "/api/v1/page-settings")).isNull();
        assertThat(PerClientLimits.kindOf("GET", "/livez")).isNull();
        assertThat(PerClientLimits.kindOf("POST", "/api/v1/queues/42")).isNull();
    }

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
        // 10,000 clients at about 400 bytes each; a million kept would take hundreds of megabytes
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
