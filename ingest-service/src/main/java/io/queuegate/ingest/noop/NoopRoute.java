package io.queuegate.ingest.noop;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.WebFluxStack;
import reactor.netty.http.server.HttpServerRoutes;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * The benchmark's yardstick inside the service: the enter and poll paths' HTTP stack (Reactor Netty with the front's
 * limits, JSON in and out, the request id) with no work behind it. Off unless
 * {@code queuegate.ingest.noop-endpoint=true}.
 */
@Component
@ConditionalOnBooleanProperty("queuegate.ingest.noop-endpoint")
record NoopRoute(JsonMapper json, FrontReplies replies) implements FastPath {

    @Override
    public void addTo(HttpServerRoutes routes, WebFluxStack webFlux) {
        routes.post("/bench/noop/{productId}/entries", (request, response) -> request.receive().aggregate()
            .asByteArray()
            .flatMap((body) -> this.replies.answer(response, HttpResponseStatus.ACCEPTED,
                    FrontReplies.requestId(request),
                    new NoopReply(this.json.readValue(body, NoopRequest.class).userId(),
                            Long.parseLong(request.param("productId")), "PENDING"))));
        routes.get("/bench/noop/{productId}/entries/{token}", (request, response) -> this.replies.answer(response,
                HttpResponseStatus.OK, FrontReplies.requestId(request),
                new NoopReply(request.param("token"), Long.parseLong(request.param("productId")), "WAITING")));
    }

    record NoopRequest(String userId) {
    }

    record NoopReply(String token, long productId, String status) {
    }
}
