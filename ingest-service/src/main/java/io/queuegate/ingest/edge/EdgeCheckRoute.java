package io.queuegate.ingest.edge;

import java.util.Set;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.WebFluxStack;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import io.queuegate.web.RequestIds;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.stereotype.Component;

/**
 * {@code GET /api/v1/queues/{productId}/edge-check} on the front: a proxy asks it for every request to a protected
 * path, so it is answered on the event loop without WebFlux, as the enters and polls are. A malformed product id goes
 * through WebFlux to {@link EdgeCheckController}, whose problem answer is the service's (the two read a request the
 * same way: {@link EdgeCheckController#asked}).
 */
@Component
class EdgeCheckRoute implements FastPath {

    private final EdgeCheck check;

    private final FrontReplies replies;

    EdgeCheckRoute(EdgeCheck check, FrontReplies replies) {
        this.check = check;
        this.replies = replies;
    }

    @Override
    public Set<DoorRoute.Kind> kinds() {
        return Set.of(DoorRoute.Kind.EDGE_CHECK);
    }

    @Override
    public Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        long productId;
        try {
            productId = ProductIds.parse(route.productId());
        }
        catch (ApiException ex) {
            return webFlux.handle(request, response, route);
        }
        var headers = request.requestHeaders();
        EdgeCheck.Asked asked = EdgeCheckController.asked(productId, headers.get("X-Forwarded-Proto"),
                headers.get("X-Forwarded-Host"), headers.get(HttpHeaderNames.HOST),
                headers.get(EdgeCheckController.ORIGINAL_URI), headers.getAll(HttpHeaderNames.COOKIE));
        String requestId = FrontReplies.requestId(request);
        return this.check.check(asked)
            .flatMap((answer) -> {
                response.status(HttpResponseStatus.valueOf(answer.status()))
                    .header(EdgeCheckController.ACTION, answer.action())
                    .header(HttpHeaderNames.CACHE_CONTROL, "no-store")
                    .header(HttpHeaderNames.CONTENT_LENGTH, "0")
                    .header(RequestIds.HEADER, requestId);
                if (answer.location() != null) {
                    response.header(EdgeCheckController.LOCATION, answer.location());
                }
                if (answer.cookie() != null) {
                    response.header(EdgeCheckController.SET_COOKIE, answer.cookie());
                }
                return response.send();
            })
            .onErrorResume((failure) -> this.replies.failure(request, response, requestId, failure));
    }
}
