package io.queuegate.ingest.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import reactor.netty.http.server.HttpServerRequest;

/**
 * Whether a request is no cross-origin call: it has no {@code Origin}, or the origin is the host it was sent to
 * (a browser sends {@code Origin} on a same-origin POST too). Only those are answered on the front; a cross-origin
 * call goes to WebFlux, whose CORS configuration decides it.
 */
public final class SameOrigin {

    private SameOrigin() {
    }

    public static boolean test(HttpServerRequest request) {
        String origin = request.requestHeaders().get(HttpHeaderNames.ORIGIN);
        if (origin == null) {
            return true;
        }
        String host = request.requestHeaders().get(HttpHeaderNames.HOST);
        if (host == null) {
            return false;
        }
        return origin.equals("http://" + host) || origin.equals("https://" + host);
    }
}
