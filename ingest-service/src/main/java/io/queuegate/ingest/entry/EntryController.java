package io.queuegate.ingest.entry;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.event.EntriesRequested.Entry;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;
import io.queuegate.web.RequestIdFilter;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A user's place in a product's line: enter, poll, leave. */
@RestController
@RequestMapping(path = "/api/v1/queues/{productId}/entries", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "entries", description = "Enter a product's line, poll your place, leave")
class EntryController {

    private final TokenCodec tokens;

    private final QueueDirectory queues;

    private final EnterPublisher publisher;

    private final PollCoalescer statuses;

    private final Leaving remover;

    private final LeavePublisher leaving;

    private final MeterRegistry metrics;

    private final Counter accepted;

    private final Counter leaves;

    private final Map<TokenStatus, Counter> polls = new EnumMap<>(TokenStatus.class);

    EntryController(TokenCodec tokens, QueueDirectory queues, EnterPublisher publisher, PollCoalescer statuses,
            Leaving remover, LeavePublisher leaving, MeterRegistry metrics) {
        this.tokens = tokens;
        this.queues = queues;
        this.publisher = publisher;
        this.statuses = statuses;
        this.remover = remover;
        this.leaving = leaving;
        this.metrics = metrics;
        this.accepted = metrics.counter("queuegate.enters", "outcome", "accepted");
        this.leaves = metrics.counter("queuegate.leaves");
        for (TokenStatus status : TokenStatus.values()) {
            this.polls.put(status, metrics.counter("queuegate.status.polls", "status", status.name()));
        }
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
        // the body itself, not a ResponseEntity, for the reason given at status()
        response.setHeader(HttpHeaders.LOCATION, "/api/v1/queues/" + productId + "/entries/" + token.value());
        return new EntryAccepted(token.value(), productId, TokenStatus.PENDING);
    }

    @GetMapping("/{token}")
    @Operation(summary = "Poll a place", description = "PENDING until the line has the entry, then WAITING with "
            + "position and ETA (from the pace admissions are actually made at), AVAILABLE with expiresAt once "
            + "admitted, EXPIRED when the place is gone (left, used, expired, or abandoned: not polled for the "
            + "queue's abandonAfterSeconds), SOLD_OUT while the product's stock is 0 (the place is kept; the line "
            + "moves again when stock returns). Before a queue's opensAt, WAITING has position null and opensAt: "
            + "the order is drawn at the opening. pollAfterMs, and the Retry-After header in seconds, say when to "
            + "poll next; they grow with position so that a queue's maxPollsPerSecond holds.")
    @ApiResponse(responseCode = "200", description = "The token's status; Retry-After says when to poll next")
    @ApiResponse(responseCode = "400", description = "invalid_token: not issued here, or for another product; "
            + "invalid_request: a malformed productId")
    @ApiResponse(responseCode = "429", description = "polled_too_soon: far sooner than the last answer said "
            + "(only on queues with maxPollsPerSecond); the place is kept; see Retry-After")
    EntryStatusResponse status(@PathVariable("productId") String productIdText, @PathVariable String token,
            HttpServletResponse response) {
        long productId = ProductIds.parse(productIdText);
        Token verified = verify(productId, token);
        TokenState state = this.statuses.read(verified);
        Long pollAfterMs = PollPolicy.pollAfterMs(state, System.currentTimeMillis());
        if (pollAfterMs != null && PollPolicy.tooSoon(state, pollAfterMs)) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, ProblemCodes.POLLED_TOO_SOON,
                    "Polled far sooner than told; the place is kept. Poll again after Retry-After.",
                    Duration.ofMillis(pollAfterMs));
        }
        this.polls.get(state.status()).increment();
        boolean waiting = state.status() == TokenStatus.WAITING;
        boolean available = state.status() == TokenStatus.AVAILABLE;
        if (pollAfterMs != null) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString((pollAfterMs + 999) / 1000));
        }
        // the body itself, not a ResponseEntity: Spring flushes a ResponseEntity before the request ends, which
        // makes Tomcat send it chunked in two writes instead of one with a length (28 µs of a poll's CPU)
        boolean placed = waiting && state.position() > 0;
        return new EntryStatusResponse(verified.value(), productId, state.status(),
                placed ? state.position() : null, placed ? PollPolicy.etaSeconds(state) : null,
                available ? state.expiresAt() : null, pollAfterMs,
                state.line().opensAt() > 0 ? state.line().opensAt() : null);
    }

    @DeleteMapping("/{token}")
    @Operation(summary = "Leave the line", description = "Gives up the place or frees the entry slot.")
    @ApiResponse(responseCode = "204", description = "The place is gone")
    @ApiResponse(responseCode = "503", description = "unavailable: the leave could not be stored; try again")
    @ApiResponse(responseCode = "400", description = "invalid_token: not issued here, or for another product; "
            + "invalid_request: a malformed productId")
    ResponseEntity<Void> leave(@PathVariable("productId") String productIdText, @PathVariable String token) {
        long productId = ProductIds.parse(productIdText);
        Token verified = verify(productId, token);
        // in the log first: a Redis that loses the leave gets it back from there, and nobody who left comes back
        this.leaving.publish(verified);
        if (this.remover.remove(verified)) {
            this.leaves.increment();
        }
        return ResponseEntity.noContent().build();
    }

    /** Refuses, before any Redis access, a token this deployment did not issue for this product. */
    private Token verify(long productId, String token) {
        return this.tokens.verify(token)
            .filter(verified -> verified.productId() == productId)
            .orElseThrow(() -> new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_TOKEN,
                    "The token was not issued by this queue for product " + productId + "."));
    }
}
