package io.queuegate.ingest.enter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.event.EntriesRequested.Entry;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.EntriesResource;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import io.queuegate.web.RequestIdFilter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;

/** Enters a product's line: the token is answered once Kafka holds the enter event. */
@EntriesResource
class EnterController {

    private final TokenCodec tokens;

    private final QueueDirectory queues;

    private final EnterPublisher publisher;

    private final MeterRegistry metrics;

    private final Counter accepted;

    EnterController(TokenCodec tokens, QueueDirectory queues, EnterPublisher publisher, MeterRegistry metrics) {
        this.tokens = tokens;
        this.queues = queues;
        this.publisher = publisher;
        this.metrics = metrics;
        this.accepted = metrics.counter("queuegate.enters", "outcome", "accepted");
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Enter the line", description = "Answers 202 once Kafka holds the enter event. "
            + "Entering again with the same userId returns the same token and keeps the place.")
    @ApiResponse(responseCode = "202", description = "Accepted; poll the Location", headers = @Header(
            name = HttpHeaders.LOCATION, description = "The token's status: /api/v1/queues/{productId}/entries/{token}",
            required = true, schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId or body")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "409", description = "queue_closed")
    @ApiResponse(responseCode = "503", description = "unavailable: Kafka did not acknowledge in time; see Retry-After")
    @ResponseStatus(HttpStatus.ACCEPTED)
    EntryAccepted enter(@PathVariable("productId") String productIdText, @Valid @RequestBody EnterRequest request,
            HttpServletResponse response) {
        long productId = ProductIds.parse(productIdText);
        Token token;
        try {
            this.queues.requireOpen(productId);
            token = this.tokens.issue(productId, request.userId());
            this.publisher.publish(productId, new Entry(token.value(), token.userId(), RequestIdFilter.current(),
                    System.currentTimeMillis()));
        }
        catch (ApiException ex) {
            this.metrics.counter("queuegate.enters", "outcome", ex.code()).increment();
            throw ex;
        }
        this.accepted.increment();
        // the body itself, not a ResponseEntity, for the reason given at StatusController.status()
        response.setHeader(HttpHeaders.LOCATION, "/api/v1/queues/" + productId + "/entries/" + token.value());
        return new EntryAccepted(token.value(), productId, TokenStatus.PENDING);
    }
}
