package io.queuegate.ingest.front;

import java.io.ByteArrayOutputStream;
import java.util.function.Supplier;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.queuegate.web.ApiException;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.util.function.SingletonSupplier;

/**
 * Spring WebFlux, in the front's server and on the request's own connection: every request no fast path answers is
 * handed to the application's {@link HttpHandler} (the page, leave, the API description, the probes, and every
 * refusal of a malformed request), in the same call, with no socket or pool between them.
 *
 * <p>A request's body is read whole first (within the front's body deadline, and no more than {@code max-body-bytes}),
 * so nothing in WebFlux ever waits on a client that sends slowly, and a body past the limit is refused 413 before any
 * handler sees it.
 */
public final class WebFluxStack {

    private final Supplier<HttpHandler> handler;

    private final FrontReplies replies;

    private final long maxBodyBytes;

    /** {@code handler} is asked for once, at the first request: the application's handler exists only once it runs. */
    WebFluxStack(Supplier<HttpHandler> handler, FrontReplies replies, long maxBodyBytes) {
        this.handler = SingletonSupplier.of(handler);
        this.replies = replies;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Hands the request to WebFlux once its whole body is here. */
    public Mono<Void> handle(HttpServerRequest request, HttpServerResponse response, DoorRoute route) {
        HttpHeaders headers = request.requestHeaders();
        boolean hasBody = headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                || headers.getInt(HttpHeaderNames.CONTENT_LENGTH, 0) > 0;
        if (!hasBody) {
            return handle(request, response, route, null);
        }
        return request.receive().asByteArray()
            .reduce(new ByteArrayOutputStream(), (body, chunk) -> {
                if (body.size() + chunk.length > this.maxBodyBytes) {
                    throw new BodyTooLarge();
                }
                body.writeBytes(chunk);
                return body;
            })
            .flatMap((body) -> handle(request, response, route, body.toByteArray()))
            .onErrorResume(BodyTooLarge.class, (tooLarge) -> this.replies.problem(request, response,
                    FrontReplies.requestId(request), ApiException.bodyTooLarge(this.maxBodyBytes)));
    }

    /** Hands the request to WebFlux with the body the front already read (null for none), and its route. */
    public Mono<Void> handle(HttpServerRequest request, HttpServerResponse response, DoorRoute route, byte[] body) {
        HttpHandler application = this.handler.get();
        return new ReactorHttpHandlerAdapter((exchange, answer) -> application.handle(
                new RoutedRequest(exchange, route, body), answer))
            .apply(request, response);
    }

    /** A chunked body went past the limit. */
    private static final class BodyTooLarge extends RuntimeException {

        BodyTooLarge() {
            super(null, null, false, false);
        }
    }
}
