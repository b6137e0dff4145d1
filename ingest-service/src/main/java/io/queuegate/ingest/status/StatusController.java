package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.EntriesResource;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** Answers a poll of a place: its status, position, ETA and when to poll next. */
@EntriesResource
class StatusController {

    private final IssuedTokens issued;

    private final PollCoalescer statuses;

    private final Map<TokenStatus, Counter> polls = new EnumMap<>(TokenStatus.class);

    StatusController(IssuedTokens issued, PollCoalescer statuses, MeterRegistry metrics) {
        this.issued = issued;
        this.statuses = statuses;
        for (TokenStatus status : TokenStatus.values()) {
            this.polls.put(status, metrics.counter("queuegate.status.polls", "status", status.name()));
        }
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
        Token verified = this.issued.verify(productId, token);
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
}
