package io.queuegate.yardstick.netty;

import java.nio.charset.StandardCharsets;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The plain no-op yardstick's two answers from Reactor Netty's HTTP server alone: no Spring, no servlet container,
 * the event loops answering on their own threads. The least a JVM HTTP stack costs per request on this machine, beside
 * the Spring stacks; see {@code bench/http-stacks.sh}. Takes {@code --server.port=N} like the Spring Boot yardsticks.
 */
public final class NettyNoopServer {

    private static final byte[] ENTERED = "{\"token\":\"noop\",\"status\":\"PENDING\"}"
        .getBytes(StandardCharsets.UTF_8);

    private static final byte[] WAITING = "{\"token\":\"noop\",\"status\":\"WAITING\",\"position\":1}"
        .getBytes(StandardCharsets.UTF_8);

    private NettyNoopServer() {
    }

    public static void main(String[] args) {
        int port = 8094;
        for (String arg : args) {
            if (arg.startsWith("--server.port=")) {
                port = Integer.parseInt(arg.substring("--server.port=".length()));
            }
        }
        DisposableServer server = HttpServer.create()
            .host("127.0.0.1")
            .port(port)
            .route(routes -> routes
                .post("/api/v1/queues/{productId}/entries",
                        (request, response) -> answer(response.status(HttpResponseStatus.ACCEPTED), ENTERED))
                .get("/api/v1/queues/{productId}/entries/{token}",
                        (request, response) -> answer(response, WAITING)))
            .bindNow();
        server.onDispose().block();
    }

    private static Mono<Void> answer(HttpServerResponse response, byte[] body) {
        return response.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
            .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length))
            .sendByteArray(Mono.just(body))
            .then();
    }
}
