package io.queuegate.web.reactive;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.web.Problem;
import io.queuegate.web.ProblemJson;
import io.queuegate.web.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Renders every failure on the reactive stack as {@code application/problem+json} with a {@code code} ({@link Problem}):
 * the project's own refusals, WebFlux's (bad JSON, an invalid body, a wrong media type, an unknown path, a method not
 * allowed), a store that is down, and anything else as a 500 that tells nothing of its cause. Ordered before Spring
 * Boot's error handler, which would answer in another shape. What it logs names the request's path with its token
 * redacted ({@link Redaction}).
 */
public class ProblemWebExceptionHandler implements WebExceptionHandler, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ProblemWebExceptionHandler.class);

    private final ProblemJson problems;

    private final MeterRegistry metrics;

    public ProblemWebExceptionHandler(JsonMapper json, MeterRegistry metrics) {
        this.problems = new ProblemJson(json);
        this.metrics = metrics;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ServerHttpResponse response = exchange.getResponse();
        String path = Redaction.path(exchange.getRequest().getPath().value());
        if (response.isCommitted()) {
            // Said here, with the path redacted: WebFlux's own line for it (HttpWebHandlerAdapter's) names the path
            // as it came, token and all, and is off in the service's logging settings. A client that left is no
            // failure.
            if (!DisconnectedClientHelper.isClientDisconnectedException(failure)) {
                log.error("{} {} failed after its answer began", exchange.getRequest().getMethod(), path, failure);
            }
            return Mono.error(failure);
        }
        Problem problem = Problem.of(failure);
        if (problem == null) {
            log.error("{} {} failed", exchange.getRequest().getMethod(), path, failure);
            problem = Problem.internal();
        }
        else if (problem.status().is5xxServerError()) {
            log.warn("{} {} answered {}: {}", exchange.getRequest().getMethod(), path, problem.status().value(),
                    Redaction.text(failure.toString()));
        }
        problem.countIn(this.metrics);
        byte[] body = this.problems.write(problem.toProblemDetail(exchange.getRequest().getPath().value()));
        response.setStatusCode(problem.status());
        HttpHeaders headers = response.getHeaders();
        headers.addAll(problem.headers());
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        headers.setContentLength(body.length);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    @Override
    public int getOrder() {
        // before Boot's ErrorWebExceptionHandler (-1) and WebFlux's ResponseStatusException handler (0)
        return -2;
    }
}
