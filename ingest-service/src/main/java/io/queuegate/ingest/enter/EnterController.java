package io.queuegate.ingest.enter;

import io.queuegate.ingest.EntriesResource;
import io.queuegate.web.ProductIds;
import io.queuegate.web.reactive.RequestIdWebFilter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
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
import org.springframework.web.bind.annotation.RequestHeader;
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
            Answers 202 once Kafka holds the enter event, with the place's token and the user id it is for. Who may \
            enter as whom is the line's identity: "visitor" (the default) enters with {} and the server makes the user \
            id; "trusted" names the shop's user (userId) with Authorization: Bearer <enter key>; "pass" carries a pass \
            the shop signed, whose subject is the user (the older inviteOnly queues are this identity). Entering again \
            with one's token ({"token": ...}), with the same pass, or with the key and the same userId answers the \
            same token and keeps the place. The token is a bearer secret: whoever holds it holds the place, so keep \
            it out of shared links and logs.""")
    @ApiResponse(responseCode = "202", description = "Accepted; poll the Location", headers = @Header(
            name = HttpHeaders.LOCATION, description = "The token's status: /api/v1/queues/{productId}/entries/{token}",
            required = true, schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "400", description = """
            invalid_request: a malformed productId or body, or a token given with a userId or pass; \
            user_id_not_accepted: the line (identity "visitor") makes its visitors' ids; user_id_required: an enter \
            with the enter key names no user; invalid_token: a token this line did not issue""")
    @ApiResponse(responseCode = "401", description = """
            enter_key_required: the line (identity "trusted") is entered by the shop's backend with its enter key; \
            enter_key_invalid: the key is not one of this deployment's""")
    @ApiResponse(responseCode = "403", description = """
            proof_required: the line asks for a solved challenge; proof_invalid: the proof is malformed, expired, for \
            another user or line, or used already; pass_required: the line (identity "pass") is entered with a pass; pass_invalid: the pass is \
            not signed by the line's pass keys, expired, for another user (than userId) or line, or the line takes no \
            passes""")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "429", description = """
            too_many_requests: this address entered too often; see Retry-After""")
    @ApiResponse(responseCode = "409", description = "queue_closed")
    @ApiResponse(responseCode = "503", description = "unavailable: Kafka did not acknowledge in time; see Retry-After")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Mono<EntryAccepted> enter(@PathVariable("productId") String productIdText,
            @Valid @RequestBody EnterRequest request,
            @Parameter(description = "Bearer <enter key>: the shop's backend, naming its user in a line of identity "
                    + "\"trusted\"") @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false)
            String authorization, ServerWebExchange exchange) {
        long productId = ProductIds.parse(productIdText);
        return Mono.fromFuture(this.enters.enter(productId, request, authorization,
                RequestIdWebFilter.of(exchange)))
            .doOnNext((accepted) -> exchange.getResponse().getHeaders()
                .set(HttpHeaders.LOCATION, Enters.location(accepted)));
    }
}
