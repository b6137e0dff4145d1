package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The cap on connections per client counts a client as the limits per client do: an IPv6 client by its /64. */
class ConnectionLimitsTests {

    private final ConnectionLimits limits = new ConnectionLimits(1_000, 2, new ClientAddresses(List.of("10.9.9.9")));

    @Test
    void theAddressesOfOneIpv6SlashSixtyFourShareOneCap() throws UnknownHostException {
        assertThat(excess("2001:db8:1:2::1")).isFalse();
        assertThat(excess("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isFalse();
        assertThat(excess("2001:db8:1:2:ffff::3")).as("a third connection from the same /64").isTrue();
        assertThat(excess("2001:db8:1:3::1")).as("the next /64 is another client").isFalse();
    }

    @Test
    void anIpv4AddressIsAClientOfItsOwn() throws UnknownHostException {
        assertThat(excess("192.0.2.1")).isFalse();
        assertThat(excess("192.0.2.1")).isFalse();
        assertThat(excess("192.0.2.2")).isFalse();
        assertThat(excess("192.0.2.1")).isTrue();
    }

    @Test
    void aClosedConnectionGivesItsCountBack() throws UnknownHostException {
        EmbeddedChannel first = open("2001:db8:7:7::1");
        open("2001:db8:7:7::2");
        first.close();
        assertThat(excess("2001:db8:7:7::3")).isFalse();
        assertThat(excess("2001:db8:7:7::4")).isTrue();
    }

    @Test
    void aTrustedProxyIsHeldOnlyToTheCapOnAllConnections() throws UnknownHostException {
        for (int i = 0; i < 10; i++) {
            assertThat(excess("10.9.9.9")).isFalse();
        }
    }

    private boolean excess(String address) throws UnknownHostException {
        return ConnectionLimits.excess(open(address));
    }

    private EmbeddedChannel open(String address) throws UnknownHostException {
        EmbeddedChannel channel = new From(new InetSocketAddress(InetAddress.getByName(address), 40_000));
        this.limits.opened(channel);
        return channel;
    }

    /** A channel that says it came from an address, as a socket's does. */
    private static final class From extends EmbeddedChannel {

        private final InetSocketAddress remote;

        From(InetSocketAddress remote) {
            this.remote = remote;
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return this.remote;
        }
    }
}
