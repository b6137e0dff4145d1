package io.queuegate.web.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The resolver the connections use: the client hands it every host, an address written in the URL included (its
 * connection operator skips the resolver only for a host built with an address, which a request's URL never is).
 */
class PublicAddressResolverTests {

    private final PublicAddressResolver resolver = new PublicAddressResolver();

    @Test
    void aNameThatResolvesInsideIsRefused() {
        assertThatExceptionOfType(RefusedAddressException.class).isThrownBy(() -> this.resolver.resolve("localhost"))
            .withMessageStartingWith("localhost resolves to ");
    }

    @Test
    void addressesWrittenLiterallyAreJudgedWithoutDns() {
        for (String host : new String[] { "127.0.0.1", "[::1]", "::1", "[::ffff:127.0.0.1]", "169.254.169.254",
                "[fe80::1]", "10.0.0.1", "0.0.0.0" }) {
            assertThatExceptionOfType(RefusedAddressException.class).as(host)
                .isThrownBy(() -> this.resolver.resolve(host));
        }
    }

    @Test
    void aPublicAddressIsAnsweredAsItIs() throws UnknownHostException {
        assertThat(this.resolver.resolve("93.184.216.34")).containsExactly(InetAddress.ofLiteral("93.184.216.34"));
        assertThat(this.resolver.resolve("[2606:4700::1]")).containsExactly(InetAddress.ofLiteral("2606:4700::1"));
    }
}
