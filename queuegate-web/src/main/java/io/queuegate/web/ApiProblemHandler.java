package io.queuegate.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Renders every refusal as {@code application/problem+json} with a {@code code} member: the project's own
 * {@link ApiException}s, Spring MVC's (bad JSON, wrong media type, unknown path) and a store that is down. No
 * {@code detail} of Spring MVC's carries a token of the path it may quote ({@link Redaction}).
 */
@RestControllerAdvice
public class ApiProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiProblemHandler.class);

    private final MeterRegistry registry;

    public ApiProblemHandler(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry.getIfAvailable(() -> Metrics.globalRegistry);
    }

    /** Counts every refusal by its code: {@code queuegate.problems{code, status}}. */
    private ProblemDetail counted(ProblemDetail problem) {
        Object code = problem.getProperties() == null ? null : problem.getProperties().get("code");
        Problem.count(this.registry, String.valueOf(code), problem.getStatus());
        return problem;
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> handleApiException(ApiException ex) {
        ResponseEntity<ProblemDetail> response = ex.toResponse();
        counted(response.getBody());
        return response;
    }

    /** Redis did not answer in time or refused: the client may retry; nothing was half-written by a script. */
    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> handleStoreFailure(DataAccessException ex) {
        log.warn("Redis failed: {}", ex.getMessage());
        ResponseEntity<ProblemDetail> response = ApiException.storeUnavailable().toResponse();
        counted(response.getBody());
        return response;
    }

    /** A body cut off at the size limit is too large, not malformed. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestBodyLimitFilter.BodyTooLargeException tooLarge) {
                ResponseEntity<ProblemDetail> response = new Problem(HttpStatus.CONTENT_TOO_LARGE,
                        ProblemCodes.PAYLOAD_TOO_LARGE, tooLarge.getMessage(), new HttpHeaders()).toResponse();
                counted(response.getBody());
                return ResponseEntity.status(response.getStatusCode()).body(response.getBody());
            }
        }
        return super.handleHttpMessageNotReadable(ex, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail problem) {
            // Spring MVC's sentence may quote the path ("No endpoint GET /…"), and a path may hold a token
            problem.setDetail(Redaction.text(problem.getDetail()));
            if (problem.getProperties() == null || !problem.getProperties().containsKey("code")) {
                problem.setProperty("code", ProblemCodes.forStatus(statusCode));
                counted(problem);
            }
        }
        return response;
    }
}
