package io.queuegate.ingest.front;

import io.queuegate.core.token.Token;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.web.ApiException;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * A fast path of one token's place ({@code GET …/entries/{token}…}): a same-origin request whose token this
 * deployment issued for the product in the path is answered by {@link #answer}, one with any other token by its
 * refusal, before any Redis access. A cross-origin request goes through WebFlux, whose controller answers it with
 * the CORS headers.
 */
public abstract class TokenRoute implements FastPath {

    private final String path;

    private final IssuedTokens issued;

    protected final FrontReplies replies;

    protected TokenRoute(String path, IssuedTokens issued, FrontReplies replies) {
        this.path = path;
        this.issued = issued;
        this.replies = replies;
    }

    @Override
    public final void addTo(HttpServerRoutes routes, WebFluxStack webFlux) {
        routes.get(this.path, (request, response) -> SameOrigin.test(request) ? verified(request, response)
                : webFlux.handle(request, response));
    }

    private Mono<Void> verified(HttpServerRequest request, HttpServerResponse response) {
        String requestId = FrontReplies.requestId(request);
        Token token;
        try {
            token = this.issued.verify(request.param("productId"), request.param("token"));
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
