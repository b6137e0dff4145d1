package io.queuegate.ingest.front;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.Completions;
import io.queuegate.web.ApiException;
import io.queuegate.web.Problem;
import io.queuegate.web.ProblemJson;
import io.queuegate.web.Redaction;
import io.queuegate.web.RequestIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The front's answers, written as WebFlux writes them: JSON bodies by the service's own {@link JsonMapper}, refusals
 * as the same {@link Problem}, written as Spring's {@code ProblemDetail} ({@code application/problem+json} with a
 * {@code code}, counted in {@code queuegate.problems}), and the request id echoed in {@code X-Request-Id}. What it
 * logs names the path with its token redacted ({@link Redaction}).
 */
public final class FrontReplies {

    private static final Logger log = LoggerFactory.getLogger(FrontReplies.class);

    private final JsonMapper json;

    private final ProblemJson problems;

    private final MeterRegistry metrics;

    public FrontReplies(JsonMapper json, MeterRegistry metrics) {
        this.json = json;
        this.problems = new ProblemJson(json);
        this.metrics = metrics;
    }

    /** The request's id: the caller's {@code X-Request-Id} when it is sane, a new one otherwise. */
    public static String requestId(HttpServerRequest request) {
        return RequestIds.idFor(request.requestHeaders().get(RequestIds.HEADER));
    }

    /** Answers {@code body} as JSON. */
    public Mono<Void> answer(HttpServerResponse response, HttpResponseStatus status, String requestId, Object body) {
        return send(response, status, requestId, MediaType.APPLICATION_JSON_VALUE, this.json.writeValueAsBytes(body));
    }

    /** Answers a failure: the refusal it carries ({@link Problem#of(Throwable)}), 500 when it is the server's own. */
    public Mono<Void> failure(HttpServerRequest request, HttpServerResponse response, String requestId,
            Throwable failure) {
        Throwable cause = Completions.cause(failure);
        if (cause instanceof AbortedException) {
            // the client closed the connection before its answer: nobody is left to answer, and nothing failed here
            log.debug("{} {}: the client left before its answer", request.method(), Redaction.path(request.uri()));
            return Mono.empty();
        }
        Problem problem = Problem.of(cause);
        if (problem == null) {
            log.error("{} {} failed", request.method(), Redaction.path(request.uri()), cause);
            problem = Problem.internal();
        }
        else if (problem.status().is5xxServerError()) {
            log.warn("{} {} answered {}: {}", request.method(), Redaction.path(request.uri()),
                    problem.status().value(), Redaction.text(cause.toString()));
        }
        return problem(request, response, requestId, problem);
    }

    /** Answers the refusal as {@code application/problem+json}, with Retry-After when it has one. */
    public Mono<Void> problem(HttpServerRequest request, HttpServerResponse response, String requestId,
            ApiException refusal) {
        return problem(request, response, requestId, Problem.of(refusal));
    }

    private Mono<Void> problem(HttpServerRequest request, HttpServerResponse response, String requestId,
            Problem problem) {
        problem.countIn(this.metrics);
        problem.headers().forEach((name, values) -> values.forEach((value) -> response.addHeader(name, value)));
        return send(response, HttpResponseStatus.valueOf(problem.status().value()), requestId,
                MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                this.problems.write(problem.toProblemDetail(pathOf(request.uri()))));
    }

    /** The request's path as WebFlux reports it: the URI without its query. */
    static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    private static Mono<Void> send(HttpServerResponse response, HttpResponseStatus status, String requestId,
            String contentType, byte[] body) {
        return response.status(status)
            .header(HttpHeaders.CONTENT_TYPE, contentType)
            .header(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length))
            .header(RequestIds.HEADER, requestId)
            .sendByteArray(Mono.just(body))
            .then();
    }
}
