package io.queuegate.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;

/**
 * What a refusal says, whichever code answers it: a status, a stable {@code code}, a sentence, the headers that go with
 * it (Retry-After, Allow, Accept). Rendered as Spring's own {@link ProblemDetail} ({@link #toProblemDetail}, written
 * by Spring MVC or by {@link ProblemJson}), and counted by {@link #countIn} as {@code queuegate.problems{code, status}}.
 *
 * @param status the HTTP status
 * @param code the problem's {@code code} member ({@link ProblemCodes})
 * @param detail the sentence for the client
 * @param headers the headers the answer carries
 */
public record Problem(HttpStatusCode status, String code, String detail, HttpHeaders headers) {

    /** The problem an {@link ApiException} says. */
    public static Problem of(ApiException refusal) {
        HttpHeaders headers = new HttpHeaders();
        if (refusal.retryAfter() != null) {
            headers.set(HttpHeaders.RETRY_AFTER, refusal.retryAfterSeconds());
        }
        if (refusal.status() == HttpStatus.UNAUTHORIZED) {
            // every credential the services take is a bearer one (the admin token, an enter key): RFC 9110 asks a 401
            // to say which scheme it wants
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return new Problem(refusal.status(), refusal.code(), refusal.getMessage(), headers);
    }

    /**
     * The problem to answer for a failure: the refusal an {@link ApiException} or a framework's
     * {@link ErrorResponse} carries (its detail with no token in it, {@link Redaction#text}), 413 for a body past a
     * buffer's limit, 503 for a store that failed (the client may retry: no script half-writes), null for anything
     * else, which is the server's own fault. A future's wrappers are looked through.
     */
    public static Problem of(Throwable thrown) {
        Throwable failure = thrown;
        while ((failure instanceof CompletionException || failure instanceof ExecutionException)
                && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (failure instanceof ApiException refusal) {
            return of(refusal);
        }
        if (failure instanceof DataAccessException) {
            return of(ApiException.storeUnavailable());
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataBufferLimitException) {
                return new Problem(HttpStatus.CONTENT_TOO_LARGE, ProblemCodes.PAYLOAD_TOO_LARGE,
                        "The request body is too large.", new HttpHeaders());
            }
        }
        if (failure instanceof ErrorResponse framework) {
            HttpStatusCode status = framework.getStatusCode();
            // a framework's sentence may quote the path ("No static resource …"), and a path may hold a token
            String detail = Redaction.text(framework.getBody().getDetail());
            return new Problem(status, ProblemCodes.forStatus(status), detail != null ? detail
                    : HttpStatus.valueOf(status.value()).getReasonPhrase(), framework.getHeaders());
        }
        return null;
    }

    /** The answer to a failure that is the server's own: 500, with nothing of it told. */
    public static Problem internal() {
        return new Problem(HttpStatus.INTERNAL_SERVER_ERROR, ProblemCodes.INTERNAL_ERROR,
                "The request failed; try again shortly.", new HttpHeaders());
    }

    /** The problem+json body, for a request to {@code instance} (its raw path; null lets Spring MVC fill it in). */
    public ProblemDetail toProblemDetail(String instance) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(this.status, this.detail);
        if (instance != null) {
            problem.setInstance(instanceUri(instance));
        }
        problem.setProperty("code", this.code);
        return problem;
    }

    /** The answer Spring MVC writes: the status, the headers and the problem, its instance the request's path. */
    public ResponseEntity<ProblemDetail> toResponse() {
        return ResponseEntity.status(this.status).headers(this.headers).body(toProblemDetail(null));
    }

    /** The path as it came when it is a valid URI (it nearly always is), quoted where it is not. */
    private static URI instanceUri(String path) {
        try {
            return new URI(path);
        }
        catch (URISyntaxException malformed) {
            try {
                return new URI(null, null, path, null);
            }
            catch (URISyntaxException unquotable) {
                return null;
            }
        }
    }

    /** Counts the refusal in {@code queuegate.problems}, by code and status. */
    public void countIn(MeterRegistry metrics) {
        count(metrics, this.code, this.status.value());
    }

    /** The one counter of refusals, whichever stack answered: {@code queuegate.problems{code, status}}. */
    static void count(MeterRegistry metrics, String code, int status) {
        metrics.counter("queuegate.problems", "code", code, "status", Integer.toString(status)).increment();
    }
}
