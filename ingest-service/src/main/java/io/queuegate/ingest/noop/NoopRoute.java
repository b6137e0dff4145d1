package io.queuegate.ingest.noop;

import java.util.Set;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.WebFluxStack;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
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
    public Set<DoorRoute.Kind> kinds() {
        return Set.of(DoorRoute.Kind.NOOP_ENTER, DoorRoute.Kind.NOOP_POLL);
    }

    @Override
    public Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        long productId = Long.parseLong(route.productId());
        if (route.kind() == DoorRoute.Kind.NOOP_POLL) {
            return this.replies.answer(response, HttpResponseStatus.OK, FrontReplies.requestId(request),
                    new NoopReply(route.token(), productId, "WAITING"));
        }
        return request.receive().aggregate()
            .asByteArray()
            .flatMap((body) -> this.replies.answer(response, HttpResponseStatus.ACCEPTED,
                    FrontReplies.requestId(request),
                    new NoopReply(this.json.readValue(body, NoopRequest.class).userId(), productId, "PENDING")));
    }

    record NoopRequest(String userId) {
    }

    record NoopReply(String token, long productId, String status) {
    }
}
