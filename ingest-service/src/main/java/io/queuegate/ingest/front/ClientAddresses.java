package io.queuegate.ingest.front;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;

/**
 * Who a request came from: the socket's remote address, or, when that is one of the proxies in front of ingest
 * ({@code queuegate.ingest.trusted-proxies}, CIDRs), the first address of {@code X-Forwarded-For} read from the right
 * that is not a trusted proxy: the address the outermost trusted proxy saw. Entries left of it were written by the
 * client and are never believed. With no trusted proxy (the default) the header is never read, so nobody can choose
 * the address they are limited as.
 *
 * <p>An IPv6 client is known by its /64: one host is usually given a whole /64, so a finer key would let it take
 * 2^64 fresh allowances.
 */
public final class ClientAddresses {

    static final String FORWARDED_FOR = "X-Forwarded-For";

    private final List<IpSubnetFilterRule> proxies;

    /** @param trustedProxies CIDRs ({@code 10.0.0.0/8}) or single addresses; a malformed one stops the start */
    public ClientAddresses(List<String> trustedProxies) {
        this.proxies = trustedProxies.stream().map(ClientAddresses::rule).toList();
    }

    /** Whether the address is one of the proxies in front of ingest. */
    public boolean isTrustedProxy(InetAddress address) {
        if (this.proxies.isEmpty()) {
            return false;
        }
        InetSocketAddress socket = new InetSocketAddress(address, 0);
        for (IpSubnetFilterRule proxy : this.proxies) {
            if (proxy.matches(socket)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client a limit applies to, as a key (an IPv6 address cut to its /64).
     *
     * @param remote the socket's remote address
     * @param forwardedFor every {@code X-Forwarded-For} header of the request, in order
     */
    public InetAddress clientOf(InetAddress remote, List<String> forwardedFor) {
        InetAddress client = remote;
        if (isTrustedProxy(remote) && !forwardedFor.isEmpty()) {
            client = firstUntrusted(String.join(",", forwardedFor), remote);
        }
        return keyOf(client);
    }

    /**
     * Walks the list from its right end past trusted proxies. A malformed entry among those a trusted proxy wrote
     * leaves the client unknown, and the last trusted hop stands for it.
     */
    private InetAddress firstUntrusted(String header, InetAddress remote) {
        String[] hops = header.split(",");
        InetAddress last = remote;
        for (int i = hops.length - 1; i >= 0; i--) {
            InetAddress hop = parse(hops[i].trim());
            if (hop == null) {
                return last;
            }
            if (!isTrustedProxy(hop)) {
                return hop;
            }
            last = hop;
        }
        return last;
    }

    /** An address without a name lookup ({@code 1.2.3.4}, {@code 1.2.3.4:80}, {@code [::1]:80}, {@code ::1}); else null. */
    static InetAddress parse(String hop) {
        String host = hop;
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            host = end < 0 ? "" : host.substring(1, end);
        }
        else if (host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
            host = host.substring(0, host.indexOf(':')); // IPv4 with a port
        }
        return host.isEmpty() ? null : NetUtil.createInetAddressFromIpAddressString(host);
    }

    static InetAddress keyOf(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] bytes = address.getAddress();
        for (int i = 8; i < 16; i++) {
            bytes[i] = 0;
        }
        try {
            return InetAddress.getByAddress(bytes);
        }
        catch (UnknownHostException ex) {
            throw new IllegalStateException("16 bytes are an IPv6 address", ex);
        }
    }

    private static IpSubnetFilterRule rule(String cidr) {
        String trimmed = cidr.trim();
        int slash = trimmed.indexOf('/');
        InetAddress address = parse(slash < 0 ? trimmed : trimmed.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException("queuegate.ingest.trusted-proxies: '" + cidr
                    + "' is not an address or a CIDR such as 10.0.0.0/8");
        }
        int bits = address instanceof Inet6Address ? 128 : 32;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(trimmed.substring(slash + 1));
        }
        catch (NumberFormatException ex) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("queuegate.ingest.trusted-proxies: '" + cidr
                    + "' has a prefix length outside 0-" + bits);
        }
        return new IpSubnetFilterRule(address, prefix, IpFilterRuleType.ACCEPT);
    }
}
