package io.queuegate.ingest.front;

import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpVersion;
import io.queuegate.web.ApiException;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * What the front refuses before any route sees the request: a target that is not a path (absolute-form, {@code *}, no
 * leading slash), an HTTP/1.1 request without exactly one Host (RFC 9112, 3.2), a transfer coding other than chunked
 * (the only one a body is read in), path parameters ({@code ;}: WebFlux's path matching would set them aside, and
 * {@code /queues/42;x=1} must not reach queue 42), and a declared body over {@code queuegate.ingest.max-body-bytes}.
 * Requests Netty's decoder cannot read at all are answered 400 (or 413, 431) by Reactor Netty before they get here.
 */
final class RequestGate {

    /**
     * How much of a refused request's body is read before the answer: closing a connection with unread bytes resets
     * it, and a client still writing would lose the answer with it.
     */
    private static final long SWALLOW_BYTES = 64 * 1024;

    private RequestGate() {
    }

    /** The refusal to answer, or null when the request may be routed. */
    static ApiException refusal(HttpServerRequest request, long maxBodyBytes) {
        String uri = request.uri();
        if (!uri.startsWith("/")) {
            return ApiException.invalidRequest("The request target must be a path.");
        }
        int semicolon = uri.indexOf(';');
        int query = uri.indexOf('?');
        if (semicolon >= 0 && (query < 0 || semicolon < query)) {
            return ApiException.pathParameters();
        }
        List<String> hosts = request.requestHeaders().getAll(HttpHeaderNames.HOST);
        if (request.version().equals(HttpVersion.HTTP_1_1) ? hosts.size() != 1 : hosts.size() > 1) {
            return ApiException.invalidRequest("An HTTP/1.1 request needs exactly one Host header.");
        }
        List<String> codings = request.requestHeaders().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!codings.isEmpty() && (codings.size() > 1 || !codings.getFirst().trim().equalsIgnoreCase("chunked"))) {
            return ApiException.invalidRequest("The only transfer coding accepted is chunked.");
        }
        if (request.requestHeaders().getInt(HttpHeaderNames.CONTENT_LENGTH, 0) > maxBodyBytes) {
            return ApiException.bodyTooLarge(maxBodyBytes);
        }
        return null;
    }

    /** Answers a refusal once the request's body is read (up to a bound), so a client still writing gets it. */
    static Mono<Void> refuse(HttpServerRequest request, HttpServerResponse response, FrontReplies replies,
            ApiException refusal) {
        return swallow(request).then(replies.problem(request, response, FrontReplies.requestId(request), refusal));
    }

    /** Reads and drops what is left of the request's body, up to {@link #SWALLOW_BYTES}. */
    private static Mono<Void> swallow(HttpServerRequest request) {
        long[] seen = { 0 };
        return request.receive().takeWhile((chunk) -> (seen[0] += chunk.readableBytes()) <= SWALLOW_BYTES).then();
    }
}
