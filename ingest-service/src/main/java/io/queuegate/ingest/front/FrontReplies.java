package io.queuegate.ingest.front;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.Completions;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.RequestIdFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * The front's answers, written as the servlet stack writes them: JSON bodies by the service's own {@link JsonMapper},
 * header names spelled as Tomcat spells them (a client may match them case by case),
 * refusals as {@code application/problem+json} with a {@code code} (counted in {@code queuegate.problems} like
 * {@code ApiProblemHandler} counts them), and the request id echoed in {@code X-Request-Id}.
 */
public final class FrontReplies {

    private static final Logger log = LoggerFactory.getLogger(FrontReplies.class);

    private final JsonMapper json;

    private final MeterRegistry metrics;

    public FrontReplies(JsonMapper json, MeterRegistry metrics) {
        this.json = json;
        this.metrics = metrics;
    }

    /** The request's id: the caller's {@code X-Request-Id} when it is sane, a new one otherwise. */
    public static String requestId(HttpServerRequest request) {
        return RequestIdFilter.idFor(request.requestHeaders().get(RequestIdFilter.HEADER));
    }

    /** Answers {@code body} as JSON. */
    public Mono<Void> answer(HttpServerResponse response, HttpResponseStatus status, String requestId, Object body) {
        return send(response, status, requestId, MediaType.APPLICATION_JSON_VALUE, this.json.writeValueAsBytes(body));
    }

    /** Answers a failure: the refusal an {@link ApiException} carries, 503 for a store that failed, 500 otherwise. */
    public Mono<Void> failure(HttpServerRequest request, HttpServerResponse response, String requestId,
            Throwable failure) {
        Throwable cause = Completions.cause(failure);
        if (cause instanceof ApiException refusal) {
            return problem(request, response, requestId, refusal);
        }
        if (cause instanceof DataAccessException storeFailure) {
            log.warn("Redis failed: {}", storeFailure.getMessage());
            return problem(request, response, requestId, ApiException.storeUnavailable());
        }
        log.error("{} {} failed", request.method(), pathOf(request.uri()), cause);
        return problem(request, response, requestId, new ApiException(HttpStatus.INTERNAL_SERVER_ERROR,
                ProblemCodes.INTERNAL_ERROR,
                "The request failed; try again shortly."));
    }

    /** Answers the refusal as {@code application/problem+json}, with Retry-After when it has one. */
    public Mono<Void> problem(HttpServerRequest request, HttpServerResponse response, String requestId,
            ApiException refusal) {
        this.metrics.counter("queuegate.problems", "code", refusal.code(), "status",
                Integer.toString(refusal.status().value())).increment();
        Map<String, Object> problem = new LinkedHashMap<>();
        // the members and their order as Spring MVC writes a ProblemDetail (its default type is left out)
        problem.put("detail", refusal.getMessage());
        problem.put("instance", pathOf(request.uri()));
        problem.put("status", refusal.status().value());
        problem.put("title", refusal.status().getReasonPhrase());
        problem.put("code", refusal.code());
        if (refusal.retryAfter() != null) {
            response.header(HttpHeaders.RETRY_AFTER, refusal.retryAfterSeconds());
        }
        return send(response, HttpResponseStatus.valueOf(refusal.status().value()), requestId,
                MediaType.APPLICATION_PROBLEM_JSON_VALUE, this.json.writeValueAsBytes(problem));
    }

    /** The request's path as the servlet stack reports it: the URI without its query. */
    static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    private static Mono<Void> send(HttpServerResponse response, HttpResponseStatus status, String requestId,
            String contentType, byte[] body) {
        return response.status(status)
            .header(HttpHeaders.CONTENT_TYPE, contentType)
            .header(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length))
            .header(RequestIdFilter.HEADER, requestId)
            .sendByteArray(Mono.just(body))
            .then();
    }
}
