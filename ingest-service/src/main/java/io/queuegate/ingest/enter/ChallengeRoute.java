package io.queuegate.ingest.enter;

import java.util.List;
import java.util.Set;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.queuegate.core.token.UserIds;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.SameOrigin;
import io.queuegate.ingest.front.WebFluxStack;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code GET /api/v1/queues/{productId}/challenge[?userId=]} on the front: at a sale's opening every person fetches a
 * challenge before entering, so it is answered on the event loops like the enter itself (through WebFlux it took four
 * times an enter's CPU). Anything else (a malformed request, a line ingest does not know yet or that asks for no
 * proof, a cross-origin fetch) goes through WebFlux to {@link ChallengeController}.
 */
@Component
record ChallengeRoute(Challenges challenges, FrontReplies replies) implements FastPath {

    @Override
    public Set<DoorRoute.Kind> kinds() {
        return Set.of(DoorRoute.Kind.CHALLENGE);
    }

    @Override
    public Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        return SameOrigin.test(request) ? challenge(request, response, route, webFlux)
                : webFlux.handle(request, response, route);
    }

    private Mono<Void> challenge(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        long productId;
        try {
            productId = ProductIds.parse(route.productId());
        }
        catch (ApiException ex) {
            return webFlux.handle(request, response, route);
        }
        List<String> users = new QueryStringDecoder(request.uri()).parameters().get("userId");
        String userId = users == null ? ProofOfWork.ANYONE : users.size() != 1 ? null : users.getFirst();
        Challenge challenge = ProofOfWork.ANYONE.equals(userId) || UserIds.isValid(userId)
                ? this.challenges.challengeOfKnownLine(productId, userId) : null;
        if (challenge == null) {
            return webFlux.handle(request, response, route);
        }
        response.header(HttpHeaders.CACHE_CONTROL, "no-store");
        return this.replies.answer(response, HttpResponseStatus.OK, FrontReplies.requestId(request), challenge);
    }
}
