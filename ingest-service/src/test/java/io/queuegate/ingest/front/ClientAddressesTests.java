package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ClientAddressesTests {

    private static final InetAddress PROXY = address("10.1.2.3");

    private static final InetAddress CLIENT = address("203.0.113.9");

    @Test
    void withoutTrustedProxiesTheHeaderIsNeverRead() {
        ClientAddresses none = new ClientAddresses(List.of());
        assertThat(none.clientOf(CLIENT, List.of("198.51.100.1"))).isEqualTo(CLIENT);
        assertThat(none.clientOf(PROXY, List.of("198.51.100.1"))).isEqualTo(PROXY);
    }

    @Test
    void throughATrustedProxyTheClientIsTheFirstUntrustedAddressFromTheRight() {
        ClientAddresses proxies = new ClientAddresses(List.of("10.0.0.0/8", "192.168.7.1"));
        // what the client wrote itself (left) is not believed; the address the outer proxy saw is
        assertThat(proxies.clientOf(PROXY, List.of("1.1.1.1, 203.0.113.9"))).isEqualTo(CLIENT);
        assertThat(proxies.clientOf(PROXY, List.of("1.1.1.1", "203.0.113.9, 192.168.7.1, 10.9.9.9")))
            .isEqualTo(CLIENT);
        assertThat(proxies.clientOf(PROXY, List.of("203.0.113.9:5555"))).isEqualTo(CLIENT);
        // nothing forwarded, or only proxies: the last trusted hop stands for the client
        assertThat(proxies.clientOf(PROXY, List.of())).isEqualTo(PROXY);
        assertThat(proxies.clientOf(PROXY, List.of("192.168.7.1"))).isEqualTo(address("192.168.7.1"));
        // a malformed entry where a trusted proxy wrote: never a name lookup, the proxy stands for it
        assertThat(proxies.clientOf(PROXY, List.of("203.0.113.9, unknown"))).isEqualTo(PROXY);
        assertThat(proxies.clientOf(PROXY, List.of("example.com"))).isEqualTo(PROXY);
        // another address claiming to be proxied is taken as it is
        assertThat(proxies.clientOf(CLIENT, List.of("198.51.100.1"))).isEqualTo(CLIENT);
    }

    @Test
    void anIpv6ClientIsKnownByItsSlash64() {
        ClientAddresses none = new ClientAddresses(List.of());
        InetAddress one = none.clientOf(address("2001:db8:1:2:aaaa::1"), List.of());
        InetAddress other = none.clientOf(address("2001:db8:1:2:bbbb::7"), List.of());
        InetAddress elsewhere = none.clientOf(address("2001:db8:1:3::1"), List.of());
        assertThat(one).isEqualTo(other).isEqualTo(address("2001:db8:1:2::"));
        assertThat(elsewhere).isNotEqualTo(one);
        ClientAddresses proxies = new ClientAddresses(List.of("::1/128"));
        assertThat(proxies.clientOf(address("::1"), List.of("[2001:db8:1:2::5]:443"))).isEqualTo(one);
    }

    @Test
    void aMalformedTrustedProxyStopsTheStart() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ClientAddresses(List.of("10.0.0.0/33")))
            .withMessageContaining("10.0.0.0/33");
        assertThatIllegalArgumentException().isThrownBy(() -> new ClientAddresses(List.of("proxy.internal")))
            .withMessageContaining("proxy.internal");
        assertThatIllegalArgumentException().isThrownBy(() -> new ClientAddresses(List.of("10.0.0.0/x")));
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
