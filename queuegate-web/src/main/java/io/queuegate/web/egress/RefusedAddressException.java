package io.queuegate.web.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** A host name resolved to an address that is not public, while {@code queuegate.egress.allow-private} is off. */
public final class RefusedAddressException extends UnknownHostException {

    RefusedAddressException(String host, InetAddress address) {
        super(host + " resolves to " + address.getHostAddress() + ", which is not a public address (requests to it "
                + "are refused unless queuegate.egress.allow-private is set)");
    }
}
