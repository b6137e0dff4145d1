package io.queuegate.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.http.MockHttpOutputMessage;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemTests {

    private final JsonMapper mapper = JsonMapper.builder().build();

    @Test
    void theReactiveStacksWriteAProblemAsSpringMvcDoes() throws Exception {
        ProblemDetail problem = Problem.of(new ApiException(HttpStatus.TOO_MANY_REQUESTS, "too_many_requests",
                "Slow down.", Duration.ofMillis(1500))).toProblemDetail("/api/v1/queues/7/entries");

        MockHttpOutputMessage mvc = new MockHttpOutputMessage();
        new JacksonJsonHttpMessageConverter(this.mapper.rebuild()).write(problem, MediaType.APPLICATION_PROBLEM_JSON, mvc);
        byte[] reactive = new ProblemJson(this.mapper).write(problem);

        assertThat(new String(reactive)).isEqualTo(mvc.getBodyAsString());
        JsonNode body = this.mapper.readTree(reactive);
        assertThat(body.get("code").asString()).isEqualTo("too_many_requests");
        assertThat(body.get("status").asInt()).isEqualTo(429);
        assertThat(body.get("detail").asString()).isEqualTo("Slow down.");
        assertThat(body.get("instance").asString()).isEqualTo("/api/v1/queues/7/entries");
        assertThat(body.has("properties")).isFalse();
    }

    @Test
    void aRefusalCarriesItsRetryAfterInWholeSecondsRoundedUp() {
        Problem problem = Problem.of(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "store_unavailable", "Later.",
                Duration.ofMillis(1500)));

        assertThat(problem.headers().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(problem.toResponse().getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(problem.toResponse().getBody().getProperties()).containsEntry("code", "store_unavailable");
    }

    @Test
    void aPathThatIsNoValidUriIsQuotedRatherThanRefused() {
        ProblemDetail problem = Problem.internal().toProblemDetail("/a b/{c}");

        assertThat(problem.getInstance()).hasToString("/a%20b/%7Bc%7D");
        assertThat(new String(new ProblemJson(this.mapper).write(problem))).contains("\"code\":\"internal_error\"");
    }
}
