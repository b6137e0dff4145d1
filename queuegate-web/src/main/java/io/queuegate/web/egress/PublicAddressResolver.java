package io.queuegate.web.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * Resolves a host name for a connection and refuses it when any of its addresses is not public
 * ({@link PublicAddresses}). The connection goes to the addresses answered here and to no other, so a name cannot
 * resolve to a public address when checked and to an inner one when connected to (DNS rebinding). An address
 * written literally (an IPv4 address, an IPv6 one in brackets) is resolved here too, without DNS, and judged alike.
 */
final class PublicAddressResolver implements DnsResolver {

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = SystemDefaultDnsResolver.INSTANCE.resolve(host);
        for (InetAddress address : addresses) {
            if (!PublicAddresses.isPublic(address)) {
                throw new RefusedAddressException(host, address);
            }
        }
        return addresses;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return SystemDefaultDnsResolver.INSTANCE.resolveCanonicalHostname(host);
    }
}
