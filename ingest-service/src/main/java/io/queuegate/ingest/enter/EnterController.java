package io.queuegate.ingest.enter;

import io.queuegate.ingest.EntriesResource;
import io.queuegate.web.ProductIds;
import io.queuegate.web.reactive.RequestIdWebFilter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;

import jakarta.validation.Valid;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.server.ServerWebExchange;

/**
 * Enters a product's line: the token is answered once Kafka holds the enter event. The HTTP front ({@link EnterRoute})
 * answers well-formed same-origin enters itself; this controller answers the rest (refusals, cross-origin calls) and
 * describes the API.
 */
@EntriesResource
record EnterController(Enters enters) {

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Enter the line", description = """
            Answers 202 once Kafka holds the enter event. Entering again with the same userId returns the same token \
            and keeps the place.""")
    @ApiResponse(responseCode = "202", description = "Accepted; poll the Location", headers = @Header(
            name = HttpHeaders.LOCATION, description = "The token's status: /api/v1/queues/{productId}/entries/{token}",
            required = true, schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId or body")
    @ApiResponse(responseCode = "403", description = """
            proof_required: the line asks for a solved challenge; proof_invalid: the proof is malformed, expired, for \
            another user or line, or used already; pass_required: the line is invite-only; pass_invalid: the pass is \
            not signed by the line's pass keys, expired, for another user or line, or the line takes no passes""")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "429", description = """
            too_many_requests: this address entered too often; see Retry-After""")
    @ApiResponse(responseCode = "409", description = "queue_closed")
    @ApiResponse(responseCode = "503", description = "unavailable: Kafka did not acknowledge in time; see Retry-After")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<EntryAccepted> enter(@PathVariable("productId") String productIdText,
            @Valid @RequestBody EnterRequest request, ServerWebExchange exchange) {
        long productId = ProductIds.parse(productIdText);
        return Mono.fromFuture(this.enters.enter(productId, request,
                RequestIdWebFilter.of(exchange)))
            .doOnNext((accepted) -> exchange.getResponse().getHeaders()
                .set(HttpHeaders.LOCATION, Enters.location(accepted)));
    }
}
