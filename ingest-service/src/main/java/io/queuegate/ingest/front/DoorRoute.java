package io.queuegate.ingest.front;

import reactor.netty.http.server.HttpServerRequest;

/**
 * What a request is, decided once where it comes in: its kind, and the product and token its path names. The front
 * reads this one value for every later choice (the probes' pass, the per-client bucket, the in-flight count, the
 * dispatch to a {@link FastPath} or to WebFlux, the burst paths' observation) instead of looking at the path again.
 *
 * <p>The path is matched as Reactor Netty's routes matched it before: decoded ({@code %65ntries} is {@code entries})
 * and without its query, each named segment any run of characters but {@code /}, the empty one included. So a
 * request is limited as what it is answered as: an enter spelled with escapes is counted as an enter.
 *
 * @param kind what the request asks for
 * @param path the decoded path, without the query; empty when the target cannot be read as a URI
 * @param productId the product segment, for the kinds under {@code /api/v1/queues/{productId}} and the no-op's; else
 *        null
 * @param token the token segment of a poll, a leave or an event stream (and the no-op's poll); else null
 */
public record DoorRoute(Kind kind, String path, String productId, String token) {

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
        /** {@code GET /livez} or {@code GET /readyz} (any method: the probes pass every cap). */
        PROBE,
        /** {@code POST /bench/noop/{p}/entries}, the benchmarks' yardstick of an enter. */
        NOOP_ENTER,
        /** {@code GET /bench/noop/{p}/entries/{token}}, the yardstick of a poll. */
        NOOP_POLL,
        /** Everything else: the page, the API description, the admin's reads, every malformed request. */
        OTHER;

        /** The per-client allowance this kind is taken from, or null when it is not limited per client. */
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

    private static final String QUEUES = "/api/v1/queues/";

    private static final String NOOP = "/bench/noop/";

    private static final DoorRoute UNREADABLE = new DoorRoute(Kind.OTHER, "", null, null);

    /** The route of a request: its decoded path as Reactor Netty's routes matched it, or OTHER when unreadable. */
    static DoorRoute of(HttpServerRequest request) {
        String path;
        try {
            path = request.fullPath();
        }
        catch (IllegalArgumentException ex) {
            // the target is not a URI: WebFlux refuses it
            path = null;
        }
        return of(request.method().name(), path);
    }

    /**
     * The route of a request.
     *
     * @param method the request's method
     * @param path its decoded path without the query, as Reactor Netty's {@code fullPath()} gives it
     */
    public static DoorRoute of(String method, String path) {
        if (path == null) {
            return UNREADABLE;
        }
        if (path.equals("/livez") || path.equals("/readyz")) {
            return new DoorRoute(Kind.PROBE, path, null, null);
        }
        if (path.startsWith(QUEUES)) {
            return underProduct(method, path, QUEUES.length(), false);
        }
        if (path.startsWith(NOOP)) {
            return underProduct(method, path, NOOP.length(), true);
        }
        return new DoorRoute(Kind.OTHER, path, null, null);
    }

    /** The route of a path whose product segment starts at {@code from}. */
    private static DoorRoute underProduct(String method, String path, int from, boolean noop) {
        int slash = path.indexOf('/', from);
        if (slash < 0) {
            return new DoorRoute(Kind.OTHER, path, null, null);
        }
        String product = path.substring(from, slash);
        String rest = path.substring(slash);
        Kind kind = Kind.OTHER;
        String token = null;
        if (rest.equals("/entries")) {
            kind = method.equals("POST") ? (noop ? Kind.NOOP_ENTER : Kind.ENTER) : Kind.OTHER;
        }
        else if (rest.startsWith("/entries/")) {
            String after = rest.substring("/entries/".length());
            int next = after.indexOf('/');
            token = next < 0 ? after : after.substring(0, next);
            kind = noop ? noopTokenKind(method, next) : tokenKind(method, next < 0 ? "" : after.substring(next));
        }
        else if (!noop && rest.equals("/challenge") && method.equals("GET")) {
            kind = Kind.CHALLENGE;
        }
        return kind == Kind.OTHER ? new DoorRoute(Kind.OTHER, path, null, null)
                : new DoorRoute(kind, path, product, token);
    }

    /** The kind of {@code /api/v1/queues/{p}/entries/{token}} followed by {@code tail}. */
    private static Kind tokenKind(String method, String tail) {
        if (tail.isEmpty()) {
            return switch (method) {
                case "GET" -> Kind.POLL;
                case "DELETE" -> Kind.LEAVE;
                default -> Kind.OTHER;
            };
        }
        return tail.equals("/events") && method.equals("GET") ? Kind.EVENTS : Kind.OTHER;
    }

    private static Kind noopTokenKind(String method, int next) {
        return next < 0 && method.equals("GET") ? Kind.NOOP_POLL : Kind.OTHER;
    }
}
