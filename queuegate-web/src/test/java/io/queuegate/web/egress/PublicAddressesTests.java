package io.queuegate.web.egress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class PublicAddressesTests {

    @ParameterizedTest
    @ValueSource(strings = { "93.184.216.34", "8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.15.255.255",
            "172.32.0.1", "192.167.255.255", "169.253.255.255", "223.255.255.255", "2606:4700::1",
            "2a00:1450:4001:80b::200e", "::ffff:93.184.216.34", "64:ff9b::5db8:d822", "2002:5db8:d822::1" })
    void publicAddressesAreTaken(String address) throws UnknownHostException {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255",
            "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "192.0.0.8",
            "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",
            "255.255.255.255", "::", "::1", "::127.0.0.1", "fe80::1", "febf::1", "fec0::1", "fc00::1", "fd12::1",
            "fd00:ec2::254", "ff02::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe", "64:ff9b:1::1", "2002:7f00:1::1", "2002:c0a8:101::1", "2001::1", "2001:db8::1",
            "100::1" })
    void addressesThatAreNotPublicAreRefused(String address) throws UnknownHostException {
        assertThat(PublicAddresses.isPublic(InetAddress.getByName(address))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "10.0.0.1", "127.0.0.1", "169.254.169.254", "93.184.216.34" })
    void anIpv4MappedAddressKeptInSixteenBytesIsJudgedByItsIpv4Address(String ipv4) throws UnknownHostException {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(InetAddress.getByName(ipv4).getAddress(), 0, mapped, 12, 4);
        InetAddress sixteen = Inet6Address.getByAddress(null, mapped, -1);

        assertThat(sixteen.getAddress()).hasSize(16);
        assertThat(PublicAddresses.isPublic(sixteen)).isEqualTo(ipv4.equals("93.184.216.34"));
    }
}
