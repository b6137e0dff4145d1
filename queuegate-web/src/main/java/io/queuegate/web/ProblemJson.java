package io.queuegate.web;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;

/**
 * Writes a {@link ProblemDetail} as Spring MVC's message converter does (its extra members, such as {@code code},
 * at the top level), for the answers no message converter writes: the reactive stack's failures and ingest's front.
 */
public final class ProblemJson {

    private final JsonMapper json;

    /** Writes with the service's own mapper and Spring's mix-in for problems. */
    public ProblemJson(JsonMapper json) {
        this.json = json.rebuild().addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build();
    }

    /** The problem+json body. */
    public byte[] write(ProblemDetail problem) {
        return this.json.writeValueAsBytes(problem);
    }
}
