package io.queuegate.ingest.status;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionSigner;
import io.queuegate.core.queue.TokenState;
import io.queuegate.core.queue.TokenStatus;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenProperties;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * What a poll is told, whichever HTTP stack took it: the state read from the line, with the position and ETA while
 * waiting, the expiry once admitted (also while sold out), and when to poll next. Counts every answer by status
 * ({@code queuegate.status.polls}).
 */
@Component
class StatusAnswers {

    private final Map<TokenStatus, Counter> polls = new EnumMap<>(TokenStatus.class);

    private final AdmissionSigner admissions;

    private final PollCoalescer statuses;

    StatusAnswers(PollCoalescer statuses, MeterRegistry metrics, AdmissionKeys keys, TokenProperties tokens) {
        this.statuses = statuses;
        this.admissions = new AdmissionSigner(keys, tokens.issuer());
        for (TokenStatus status : TokenStatus.values()) {
            this.polls.put(status, metrics.counter("queuegate.status.polls", "status", status.name()));
        }
    }

    /**
     * Answers a poll of the token's place, from its state read in one Redis call with the product's other polls;
     * fails with the {@link ApiException} to answer (429 {@code polled_too_soon}, 503 {@code unavailable}).
     */
    CompletableFuture<EntryStatusResponse> poll(Token token) {
        return this.statuses.read(token).thenApply((state) -> answer(token, state));
    }

    /** @throws ApiException 429 {@code polled_too_soon} when the poll came far sooner than the last answer said */
    EntryStatusResponse answer(Token token, TokenState state) {
        Long pollAfterMs = PollPolicy.pollAfterMs(state, System.currentTimeMillis());
        if (pollAfterMs != null && PollPolicy.tooSoon(state, pollAfterMs)) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, ProblemCodes.POLLED_TOO_SOON,
                    "Polled far sooner than told; the place is kept. Poll again after Retry-After.",
                    Duration.ofMillis(pollAfterMs));
        }
        this.polls.get(state.status()).increment();
        return describe(token, state, pollAfterMs);
    }

    /** What the place's state says, for a stream: no poll came early, the stream reads at the pace it asks. */
    EntryStatusResponse describe(Token token, TokenState state) {
        return describe(token, state, PollPolicy.pollAfterMs(state, System.currentTimeMillis()));
    }

    private EntryStatusResponse describe(Token token, TokenState state, Long pollAfterMs) {
        boolean waiting = state.status() == TokenStatus.WAITING;
        boolean available = state.status() == TokenStatus.AVAILABLE;
        // sold out while admitted: the admission is kept until its expiry, should stock return, but signs nothing
        boolean admitted = available || state.status() == TokenStatus.SOLD_OUT && state.expiresAt() > 0;
        boolean placed = waiting && state.position() > 0;
        return new EntryStatusResponse(token.value(), token.productId(), state.status(),
                placed ? state.position() : null, placed ? PollPolicy.etaSeconds(state) : null,
                placed ? PollPolicy.etaMaxSeconds(state) : null,
                admitted ? state.expiresAt() : null, pollAfterMs,
                state.line().opensAt() > 0 ? state.line().opensAt() : null,
                available ? this.admissions.sign(token, state.expiresAt()) : null);
    }

    /** The Retry-After header of an answer, in whole seconds, or null when there is nothing left to poll for. */
    static String retryAfter(EntryStatusResponse answer) {
        return answer.pollAfterMs() == null ? null : Long.toString((answer.pollAfterMs() + 999) / 1000);
    }
}
