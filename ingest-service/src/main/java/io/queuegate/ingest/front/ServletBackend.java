package io.queuegate.ingest.front;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.web.ApiException;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The servlet stack behind the front (Spring MVC on Tomcat, on a loopback port): every request no fast path answers
 * is handed to it as it came, and its answer goes back as it was given. So the page, leave, the API description,
 * the probes and every refusal of a malformed request are the servlet stack's own; the front drops what the client
 * said of its origin ({@code Forwarded}, {@code X-Forwarded-*}) and adds the {@code X-Forwarded-For} it saw.
 */
public final class ServletBackend {

    private static final Logger log = LoggerFactory.getLogger(ServletBackend.class);

    /** Headers of one connection, not of the request: each side of the front has its own (RFC 9110, 7.6.1). */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "expect");

    /**
     * What a client may say about where it came from: never passed on, so that nothing behind the front can be told
     * another address than the one the front saw (no proxy in front of ingest is trusted).
     */
    private static final Set<String> FORWARDED = Set.of("forwarded", "x-forwarded-for", "x-forwarded-host",
            "x-forwarded-proto", "x-forwarded-port", "x-forwarded-prefix", "x-real-ip");

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final HttpClient client;

    private final FrontReplies replies;

    private final long maxBodyBytes;

    ServletBackend(HttpClient client, FrontReplies replies, long maxBodyBytes) {
        this.client = client;
        this.replies = replies;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * Hands the request to the servlet stack once its whole body is here. The front reads the body first (within
     * its body deadline, and no more than {@code max-body-bytes}), so a client that sends slowly, or never, holds a
     * socket of its own and never one of the pool to the servlet stack.
     */
    public Mono<Void> forward(HttpServerRequest request, HttpServerResponse response) {
        HttpHeaders headers = request.requestHeaders();
        boolean hasBody = headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                || headers.getInt(HttpHeaderNames.CONTENT_LENGTH, 0) > 0;
        if (!hasBody) {
            return send(request, response, null);
        }
        return request.receive().asByteArray()
            .reduce(new ByteArrayOutputStream(), (body, chunk) -> {
                if (body.size() + chunk.length > this.maxBodyBytes) {
                    throw new BodyTooLarge();
                }
                body.writeBytes(chunk);
                return body;
            })
            .flatMap((body) -> forward(request, response, body.toByteArray()))
            .onErrorResume(BodyTooLarge.class, (tooLarge) -> this.replies.problem(request, response,
                    FrontReplies.requestId(request), ApiException.bodyTooLarge(this.maxBodyBytes)));
    }

    /** Hands the request to the servlet stack with the body the front already read. */
    public Mono<Void> forward(HttpServerRequest request, HttpServerResponse response, byte[] body) {
        return send(request, response, Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)));
    }

    private Mono<Void> send(HttpServerRequest request, HttpServerResponse response, Publisher<ByteBuf> body) {
        HttpClient.RequestSender sender = this.client
            .headers((headers) -> {
                for (Map.Entry<String, String> header : request.requestHeaders()) {
                    String name = header.getKey().toLowerCase(Locale.ROOT);
                    if (!HOP_BY_HOP.contains(name) && !FORWARDED.contains(name)) {
                        headers.add(header.getKey(), header.getValue());
                    }
                }
                if (request.remoteAddress() instanceof InetSocketAddress client) {
                    headers.add("X-Forwarded-For", client.getAddress().getHostAddress());
                }
            })
            .request(request.method())
            .uri(request.uri());
        HttpClient.ResponseReceiver<?> receiver = body == null ? sender
                : sender.send((forwarded, outbound) -> outbound.send(body));
        return receiver
            .response((answer, content) -> {
                // the standard reason phrase: Tomcat sends none
                response.status(HttpResponseStatus.valueOf(answer.status().code()));
                for (Map.Entry<String, String> header : answer.responseHeaders()) {
                    if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                        response.responseHeaders().add(header.getKey(), header.getValue());
                    }
                }
                return response.send(content.retain()).then();
            })
            .then()
            .onErrorResume((failure) -> {
                if (response.hasSentHeaders()) {
                    return Mono.error(failure);
                }
                log.warn("the servlet stack did not answer {} {}: {}", request.method(),
                        FrontReplies.pathOf(request.uri()), failure.toString());
                return this.replies.problem(request, response, FrontReplies.requestId(request),
                        ApiException.unavailable("The service is not answering; try again shortly.", RETRY_AFTER));
            });
    }

    /** A chunked body went past the limit. */
    private static final class BodyTooLarge extends RuntimeException {

        BodyTooLarge() {
            super(null, null, false, false);
        }
    }
}
