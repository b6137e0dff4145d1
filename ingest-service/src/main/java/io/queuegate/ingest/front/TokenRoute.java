package io.queuegate.ingest.front;

import java.util.Set;

import io.queuegate.core.token.Token;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.web.ApiException;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A fast path of one token's place ({@code GET …/entries/{token}…}): a same-origin request whose token this
 * deployment issued for the product in the path is answered by {@link #answer}, one with any other token by its
 * refusal, before any Redis access. A cross-origin request goes through WebFlux, whose controller answers it with
 * the CORS headers.
 */
public abstract class TokenRoute implements FastPath {

    private final DoorRoute.Kind kind;

    private final IssuedTokens issued;

    protected final FrontReplies replies;

    protected TokenRoute(DoorRoute.Kind kind, IssuedTokens issued, FrontReplies replies) {
        this.kind = kind;
        this.issued = issued;
        this.replies = replies;
    }

    @Override
    public final Set<DoorRoute.Kind> kinds() {
        return Set.of(this.kind);
    }

    @Override
    public final Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        return SameOrigin.test(request) ? verified(request, response, route)
                : webFlux.handle(request, response, route);
    }

    private Mono<Void> verified(HttpServerRequest request, HttpServerResponse response, DoorRoute route) {
        String requestId = FrontReplies.requestId(request);
        Token token;
        try {
            token = this.issued.verify(route.productId(), route.token());
        }
        catch (ApiException ex) {
            return this.replies.problem(request, response, requestId, ex);
        }
        return answer(request, response, requestId, token);
    }

    /** Answers a request of a token issued here for the product in the path. */
    protected abstract Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, String requestId,
            Token token);
}
