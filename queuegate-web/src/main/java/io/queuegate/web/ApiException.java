package io.queuegate.web;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * A refusal the client should read: an HTTP status, a stable machine-readable {@code code} and a sentence.
 * Rendered as RFC 9457 {@code application/problem+json} by {@link ApiProblemHandler}.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;

    private final String code;

    private final Duration retryAfter;

    public ApiException(HttpStatus status, String code, String detail) {
        this(status, code, detail, null);
    }

    public ApiException(HttpStatus status, String code, String detail, Duration retryAfter) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public HttpStatus status() {
        return this.status;
    }

    public String code() {
        return this.code;
    }

    /** When the client may try again, for 429 and 503; null otherwise. */
    public Duration retryAfter() {
        return this.retryAfter;
    }

    /** The Retry-After header's value: whole seconds, rounded up, at least 1; null when there is no retryAfter. */
    public String retryAfterSeconds() {
        return this.retryAfter == null ? null : Long.toString(Math.max(1, (this.retryAfter.toMillis() + 999) / 1000));
    }

    /** The answer: problem+json with the code, and Retry-After in whole seconds (at least 1) when there is one. */
    public ResponseEntity<ProblemDetail> toResponse() {
        return Problem.of(this).toResponse();
    }

    /** A product without a queue: 404 {@code queue_not_found}. */
    public static ApiException queueNotFound(long productId) {
        return new ApiException(HttpStatus.NOT_FOUND, ProblemCodes.QUEUE_NOT_FOUND,
                "No queue is configured for product " + productId + ".");
    }

    public static ApiException invalidRequest(String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_REQUEST, detail);
    }

    /** Path parameters ({@code ;}): Spring would strip them, and {@code /queues/42;x=1} must not reach queue 42. */
    public static ApiException pathParameters() {
        return invalidRequest("Path parameters (;) are not accepted.");
    }

    /** A body larger than the API ever needs. */
    public static ApiException bodyTooLarge(long maxBytes) {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, ProblemCodes.PAYLOAD_TOO_LARGE,
                "The request body is larger than " + maxBytes + " bytes.");
    }

    /** Redis did not answer in time or refused: the client may retry; nothing was half-written by a script. */
    public static ApiException storeUnavailable() {
        return unavailable("The queue store is not answering; try again shortly.", Duration.ofSeconds(1));
    }

    public static ApiException unavailable(String detail, Duration retryAfter) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, ProblemCodes.UNAVAILABLE, detail, retryAfter);
    }
}
