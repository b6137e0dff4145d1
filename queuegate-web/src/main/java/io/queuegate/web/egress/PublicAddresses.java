package io.queuegate.web.egress;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * Whether an address is public: reachable on the internet, and none of the host's own, its network's or its cloud's
 * (RFC 6890's special-purpose registries). An IPv6 address that carries an IPv4 one (IPv4-mapped
 * {@code ::ffff:a.b.c.d}, NAT64 {@code 64:ff9b::a.b.c.d}, 6to4 {@code 2002:aabb:ccdd::}) is judged by the IPv4 address
 * it carries.
 */
public final class PublicAddresses {

    private static final List<Block> NOT_PUBLIC = List.of(
            Block.of("0.0.0.0/8"), // this network; 0.0.0.0 is every local interface
            Block.of("10.0.0.0/8"), // private
            Block.of("100.64.0.0/10"), // carrier-grade NAT
            Block.of("127.0.0.0/8"), // loopback
            Block.of("169.254.0.0/16"), // link-local: cloud instance metadata at 169.254.169.254
            Block.of("172.16.0.0/12"), // private
            Block.of("192.0.0.0/24"), // IETF protocol assignments
            Block.of("192.0.2.0/24"), // documentation
            Block.of("192.88.99.0/24"), // 6to4 relays
            Block.of("192.168.0.0/16"), // private
            Block.of("198.18.0.0/15"), // benchmarking
            Block.of("198.51.100.0/24"), // documentation
            Block.of("203.0.113.0/24"), // documentation
            Block.of("224.0.0.0/4"), // multicast
            Block.of("240.0.0.0/4"), // reserved, and the broadcast address
            Block.of("::/96"), // unspecified (::), loopback (::1), IPv4-compatible
            Block.of("64:ff9b:1::/48"), // NAT64 for local use
            Block.of("100::/64"), // discard
            Block.of("2001::/32"), // Teredo
            Block.of("2001:db8::/32"), // documentation
            Block.of("fc00::/7"), // unique local
            Block.of("fe80::/10"), // link-local
            Block.of("fec0::/10"), // site-local
            Block.of("ff00::/8")); // multicast

    private PublicAddresses() {
    }

    /** Whether {@code address} is public. */
    public static boolean isPublic(InetAddress address) {
        return isPublic(address.getAddress());
    }

    private static boolean isPublic(byte[] address) {
        byte[] carried = carriedIpv4(address);
        if (carried != null) {
            return isPublic(carried);
        }
        for (Block block : NOT_PUBLIC) {
            if (block.contains(address)) {
                return false;
            }
        }
        return true;
    }

    /** The IPv4 address an IPv6 one carries, or null. */
    private static byte[] carriedIpv4(byte[] address) {
        if (address.length != 16) {
            return null;
        }
        if (startsWith(address, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff) // IPv4-mapped
                || startsWith(address, 0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0)) { // NAT64
            return Arrays.copyOfRange(address, 12, 16);
        }
        if (startsWith(address, 0x20, 0x02)) { // 6to4
            return Arrays.copyOfRange(address, 2, 6);
        }
        return null;
    }

    private static boolean startsWith(byte[] address, int... prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if ((address[i] & 0xff) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** A CIDR block: the addresses whose first {@code bits} bits are the network's. */
    private record Block(byte[] network, int bits) {

        static Block of(String cidr) {
            int slash = cidr.indexOf('/');
            byte[] network = InetAddress.ofLiteral(cidr.substring(0, slash)).getAddress();
            return new Block(network, Integer.parseInt(cidr.substring(slash + 1)));
        }

        boolean contains(byte[] address) {
            if (address.length != this.network.length) {
                return false;
            }
            int whole = this.bits / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != this.network[i]) {
                    return false;
                }
            }
            int rest = this.bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[whole] & mask) == (this.network[whole] & mask);
        }
    }
}
