package io.queuegate.web.egress;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * Which URLs the services may send requests to: absolute {@code https} URLs with a host and no user info
 * ({@code http} too with {@code queuegate.egress.allow-http}), whose host, when written as an address, is public
 * ({@code queuegate.egress.allow-private} takes any). A host name is judged when it is connected to, by the addresses
 * it then resolves to ({@link PublicAddressResolver}); here only what the URL itself says is.
 */
public record EgressUrls(EgressProperties properties) {

    /** Why a request may not go to {@code url}, as the end of a sentence that names it; empty when it may. */
    public Optional<String> refusal(String url) {
        URI uri;
        try {
            uri = new URI(url);
        }
        catch (URISyntaxException ex) {
            return Optional.of("must be an absolute https URL");
        }
        String scheme = uri.getScheme();
        boolean http = "http".equalsIgnoreCase(scheme);
        if (!uri.isAbsolute() || uri.getHost() == null || uri.getRawUserInfo() != null
                || !(http || "https".equalsIgnoreCase(scheme))) {
            return Optional.of("must be an absolute https URL");
        }
        if (http && !this.properties.allowHttp()) {
            return Optional.of("must be an https URL (plain http is taken only where queuegate.egress.allow-http is "
                    + "set)");
        }
        if (!this.properties.allowPrivate()) {
            Optional<InetAddress> written = literalAddress(uri.getHost());
            if (written.isPresent() && !PublicAddresses.isPublic(written.get())) {
                return Optional.of("names " + written.get().getHostAddress() + ", which is not a public address "
                        + "(taken only where queuegate.egress.allow-private is set)");
            }
        }
        return Optional.empty();
    }

    /** {@code url} as a URI a request may go to; refused as {@link #refusal} says. */
    public URI check(String url) throws RefusedUrlException {
        Optional<String> refusal = refusal(url);
        if (refusal.isPresent()) {
            throw new RefusedUrlException("The URL " + refusal.get() + ".");
        }
        return URI.create(url);
    }

    /** The address a URL's host writes literally (IPv6 in brackets), without asking DNS; empty for a name. */
    private static Optional<InetAddress> literalAddress(String host) {
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            return Optional.of(InetAddress.ofLiteral(literal));
        }
        catch (IllegalArgumentException ex) {
            return Optional.empty();
        }
    }
}
