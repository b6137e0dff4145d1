package io.queuegate.ingest.status;

import io.queuegate.core.token.Token;
import io.queuegate.ingest.EntriesResource;
import io.queuegate.ingest.IssuedTokens;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers a poll of a place: its status, position, ETA and when to poll next. The HTTP front ({@link StatusRoute})
 * answers same-origin polls itself; this controller answers cross-origin ones and describes the API.
 */
@EntriesResource
record StatusController(IssuedTokens issued, StatusAnswers answers) {

    @GetMapping("/{token}")
    @Operation(summary = "Poll a place", description = """
            PENDING until the line has the entry, then WAITING with position and ETA (from the pace admissions are \
            actually made at), AVAILABLE with expiresAt once admitted, EXPIRED when the place is gone (left, used, \
            expired, or abandoned: not polled for the queue's abandonAfterSeconds), SOLD_OUT while the product's stock \
            is 0 (every place is kept: the line moves again when stock returns; an admitted user's SOLD_OUT carries \
            the admission's expiresAt and reads AVAILABLE again if stock returns before then). Before a queue's \
            opensAt, WAITING has position null and opensAt: the order is drawn at the opening. pollAfterMs, and the \
            Retry-After header in seconds, say when to poll next; they grow with position so that a queue's \
            maxPollsPerSecond holds.""")
    @ApiResponse(responseCode = "200", description = "The token's status; Retry-After says when to poll next")
    @ApiResponse(responseCode = "400", description = IssuedTokens.REFUSALS)
    @ApiResponse(responseCode = "429", description = """
            polled_too_soon: far sooner than the last answer said (only on queues with maxPollsPerSecond); the place \
            is kept; see Retry-After""")
    Mono<EntryStatusResponse> status(@PathVariable("productId") String productIdText, @PathVariable String token,
            ServerWebExchange exchange) {
        Token verified = this.issued.verify(productIdText, token);
        return Mono.fromFuture(this.answers.poll(verified)).doOnNext((answer) -> {
            String retryAfter = StatusAnswers.retryAfter(answer);
            if (retryAfter != null) {
                exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfter);
            }
        });
    }
}
