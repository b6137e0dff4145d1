package io.queuegate.ingest.status;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.EntriesPaths;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.SameOrigin;
import io.queuegate.ingest.front.WebFluxStack;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code GET /api/v1/queues/{productId}/entries/{token}} on the front: a poll is answered from the shared Redis call
 * that reads it ({@link PollCoalescer}), without a thread waiting for that call. A cross-origin poll goes through
 * WebFlux to {@link StatusController}, which answers it with the CORS headers.
 */
@Component
class StatusRoute implements FastPath {


    private final IssuedTokens issued;

    private final PollCoalescer statuses;

    private final StatusAnswers answers;

    private final FrontReplies replies;

    StatusRoute(IssuedTokens issued, PollCoalescer statuses, StatusAnswers answers, FrontReplies replies) {
        this.issued = issued;
        this.statuses = statuses;
        this.answers = answers;
        this.replies = replies;
    }

    @Override
    public void addTo(HttpServerRoutes routes, WebFluxStack webFlux) {
        routes.get(EntriesPaths.TOKEN, (request, response) -> SameOrigin.test(request) ? poll(request, response)
                : webFlux.handle(request, response));
    }

    private Mono<Void> poll(HttpServerRequest request, HttpServerResponse response) {
        String requestId = FrontReplies.requestId(request);
        Token token;
        try {
            token = this.issued.verify(ProductIds.parse(request.param("productId")), request.param("token"));
        }
        catch (ApiException ex) {
            return this.replies.problem(request, response, requestId, ex);
        }
        return Mono.fromFuture(this.statuses.read(token))
            .flatMap((state) -> {
                EntryStatusResponse answer = this.answers.answer(token, state);
                String retryAfter = StatusAnswers.retryAfter(answer);
                if (retryAfter != null) {
                    response.header(HttpHeaders.RETRY_AFTER, retryAfter);
                }
                return this.replies.answer(response, HttpResponseStatus.OK, requestId, answer);
            })
            .onErrorResume((failure) -> this.replies.failure(request, response, requestId, failure));
    }
}
