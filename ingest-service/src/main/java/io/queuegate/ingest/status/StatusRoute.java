package io.queuegate.ingest.status;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.TokenRoute;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code GET /api/v1/queues/{productId}/entries/{token}} on the front: a poll is answered from the shared Redis call
 * that reads it ({@link StatusAnswers#poll}), without a thread waiting for that call. A cross-origin poll goes through
 * WebFlux to {@link StatusController}, which answers it with the CORS headers.
 */
@Component
class StatusRoute extends TokenRoute {

    private final StatusAnswers answers;

    StatusRoute(IssuedTokens issued, StatusAnswers answers, FrontReplies replies) {
        super(DoorRoute.Kind.POLL, issued, replies);
        this.answers = answers;
    }

    @Override
    protected Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, String requestId,
            Token token) {
        return Mono.fromFuture(this.answers.poll(token))
            .flatMap((answer) -> {
                String retryAfter = StatusAnswers.retryAfter(answer);
                if (retryAfter != null) {
                    response.header(HttpHeaders.RETRY_AFTER, retryAfter);
                }
                return this.replies.answer(response, HttpResponseStatus.OK, requestId, answer);
            })
            .onErrorResume((failure) -> this.replies.failure(request, response, requestId, failure));
    }
}
