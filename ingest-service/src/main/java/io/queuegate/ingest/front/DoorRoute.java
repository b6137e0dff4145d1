package io.queuegate.ingest.front;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import reactor.netty.http.server.HttpServerRequest;

/**
 * What a request is, decided once where it comes in: its kind, the product and token its path names, and the
 * allowance it is taken from. The front reads this one value for every later choice (the probes' pass, the per-client
 * bucket, the in-flight count, the dispatch to a {@link FastPath} or to WebFlux, the burst paths' observation) instead
 * of looking at the path again.
 *
 * <p>The kind is matched on the raw path without its query, as Reactor Netty's route templates matched it before:
 * each named segment any run of characters but {@code /}, the empty one included, and the segments as sent (so
 * {@code %65ntries} is not {@code entries}, and such a request goes to WebFlux, as it did). WebFlux decodes each
 * segment before it matches, so a request of another kind by its raw path may still be answered as an enter there:
 * its allowance is that of its decoded path, and an enter spelled with escapes is counted as the enter it is.
 *
 * @param kind what the request asks for, by its raw path
 * @param productId the product segment as sent, for the kinds under {@code /api/v1/queues/{productId}} and the
 *        no-op's; else null
 * @param token the token segment as sent, of a poll, a leave or an event stream (and the no-op's poll); else null
 * @param allowance the per-client allowance the request is taken from, or null when it is not limited per client
 */
public record DoorRoute(Kind kind, String productId, String token, PerClientLimits.Kind allowance) {

    /** What a request asks for. */
    public enum Kind {

        /** {@code POST /api/v1/queues/{p}/entries}. */
        ENTER,
        /** {@code GET /api/v1/queues/{p}/entries/{token}}. */
        POLL,
        /** {@code DELETE /api/v1/queues/{p}/entries/{token}}. */
        LEAVE,
        /** {@code GET /api/v1/queues/{p}/entries/{token}/events}: a place's event stream. */
        EVENTS,
        /** {@code GET /api/v1/queues/{p}/challenge}. */
        CHALLENGE,
        /**
         * {@code GET /api/v1/queues/{p}/edge-check}: a proxy asks it for all its visitors from one address, so it is
         * not limited per client (the caps on connections and on work in flight hold).
         */
        EDGE_CHECK,
        /** {@code /livez} or {@code /readyz}, whatever the method: the probes pass every cap. */
        PROBE,
        /** {@code POST /bench/noop/{p}/entries}, the benchmarks' yardstick of an enter. */
        NOOP_ENTER,
        /** {@code GET /bench/noop/{p}/entries/{token}}, the yardstick of a poll. */
        NOOP_POLL,
        /** Everything else: the page, the API description, the admin's reads, every malformed request. */
        OTHER;

        /** The per-client allowance a request of this kind is taken from, or null when it is not limited. */
        PerClientLimits.Kind allowance() {
            return switch (this) {
                // a leave writes to the log as an enter does, so it is taken from the same allowance
                case ENTER, LEAVE -> PerClientLimits.Kind.ENTER;
                case POLL, EVENTS, CHALLENGE -> PerClientLimits.Kind.POLL;
                default -> null;
            };
        }

        /**
         * Whether a request of this kind counts as work in flight: an event stream stays open for as long as its
         * place waits, and its own cap ({@code queuegate.ingest.streams.max-per-product}) bounds it; a probe passes
         * every cap.
         */
        boolean inFlight() {
            return this != EVENTS && this != PROBE;
        }

        /** Whether this is one of the two paths a burst hits, left out of per-request observation. */
        public boolean burst() {
            return this == ENTER || this == POLL;
        }
    }

    /** The route of a request. */
    static DoorRoute of(HttpServerRequest request) {
        return of(request.method().name(), request.uri());
    }

    /**
     * The route of a request.
     *
     * @param method the request's method
     * @param target the request target as sent (a path, with its query if any)
     */
    public static DoorRoute of(String method, String target) {
        String path = pathOf(target);
        String[] segments = path.split("/", -1);
        DoorRoute route = match(method, segments);
        if (route.kind() == Kind.OTHER && path.indexOf('%') >= 0) {
            String[] decoded = decode(segments);
            Kind answeredAs = decoded == null ? Kind.OTHER : match(method, decoded).kind();
            return new DoorRoute(Kind.OTHER, null, null, answeredAs.allowance());
        }
        return route;
    }

    /** The target without its query and fragment. */
    private static String pathOf(String target) {
        int end = target.length();
        for (int i = 0; i < end; i++) {
            char c = target.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
            }
        }
        return target.substring(0, end);
    }

    /** The route of a path split at its slashes ({@code segments[0]} is what precedes the first one). */
    private static DoorRoute match(String method, String[] segments) {
        int n = segments.length;
        if (n == 2 && segments[0].isEmpty() && (segments[1].equals("livez") || segments[1].equals("readyz"))) {
            return of(Kind.PROBE, null, null);
        }
        if (n >= 6 && segments[0].isEmpty() && segments[1].equals("api") && segments[2].equals("v1")
                && segments[3].equals("queues")) {
            return underProduct(method, segments[4], segments, 5);
        }
        if (n >= 5 && segments[0].isEmpty() && segments[1].equals("bench") && segments[2].equals("noop")) {
            return underNoop(method, segments[3], segments);
        }
        return of(Kind.OTHER, null, null);
    }

    /** {@code /api/v1/queues/{product}/...}, what follows the product starting at {@code segments[at]}. */
    private static DoorRoute underProduct(String method, String product, String[] segments, int at) {
        int rest = segments.length - at;
        String first = segments[at];
        if (rest == 1 && first.equals("entries") && method.equals("POST")) {
            return of(Kind.ENTER, product, null);
        }
        if (rest == 1 && first.equals("challenge") && method.equals("GET")) {
            return of(Kind.CHALLENGE, product, null);
        }
        if (rest == 1 && first.equals("edge-check") && method.equals("GET")) {
            return of(Kind.EDGE_CHECK, product, null);
        }
        if (rest == 2 && first.equals("entries")) {
            Kind kind = switch (method) {
                case "GET" -> Kind.POLL;
                case "DELETE" -> Kind.LEAVE;
                default -> Kind.OTHER;
            };
            return of(kind, product, segments[at + 1]);
        }
        if (rest == 3 && first.equals("entries") && segments[at + 2].equals("events") && method.equals("GET")) {
            return of(Kind.EVENTS, product, segments[at + 1]);
        }
        return of(Kind.OTHER, null, null);
    }

    /** {@code /bench/noop/{product}/entries} and {@code .../entries/{token}}. */
    private static DoorRoute underNoop(String method, String product, String[] segments) {
        if (!segments[4].equals("entries")) {
            return of(Kind.OTHER, null, null);
        }
        if (segments.length == 5 && method.equals("POST")) {
            return of(Kind.NOOP_ENTER, product, null);
        }
        if (segments.length == 6 && method.equals("GET")) {
            return of(Kind.NOOP_POLL, product, segments[5]);
        }
        return of(Kind.OTHER, null, null);
    }

    private static DoorRoute of(Kind kind, String productId, String token) {
        return kind == Kind.OTHER ? new DoorRoute(Kind.OTHER, null, null, null)
                : new DoorRoute(kind, productId, token, kind.allowance());
    }

    /** Each segment percent-decoded as UTF-8, as WebFlux decodes it before matching; null for a malformed one. */
    private static String[] decode(String[] segments) {
        String[] decoded = new String[segments.length];
        for (int i = 0; i < segments.length; i++) {
            decoded[i] = segments[i].indexOf('%') < 0 ? segments[i] : decode(segments[i]);
            if (decoded[i] == null) {
                return null;
            }
        }
        return decoded;
    }

    private static String decode(String segment) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int high = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(segment.charAt(i + 2), 16);
            if (low < 0) {
                return null;
            }
            bytes.write(high * 16 + low);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes.toByteArray()))
                .toString();
        }
        catch (CharacterCodingException ex) {
            return null;
        }
    }
}
