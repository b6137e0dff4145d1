package io.queuegate.web.openapi;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.http.HttpHeaders;

/**
 * Describes the refusals every operation shares, and describes every refusal as what it is on the wire.
 * <p>
 * A controller declares the answers particular to it ({@code 404 queue_not_found}); this adds, where the operation
 * does not declare them itself, the ones a shared filter or handler gives to any request (see each below). Then every
 * 4xx and 5xx answer gets the {@code Problem} body as {@code application/problem+json}, replacing what springdoc
 * infers from the method's return type (the success body, which an error never has), and 429 and 503 get their
 * {@code Retry-After}.
 */
final class ProblemAnswers implements OpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getPaths() == null) {
            return;
        }
        for (PathItem path : openApi.getPaths().values()) {
            for (Operation operation : path.readOperations()) {
                describe(operation);
            }
        }
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        openApi.getComponents().addSchemas(ProblemSchema.NAME, ProblemSchema.schema());
    }

    private static void describe(Operation operation) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        // RequestBodyLimitFilter refuses a path with ';' parameters on every route, and every productId is read
        // by ProductIds, so any operation can answer 400
        boolean body = operation.getRequestBody() != null;
        responses.computeIfAbsent("400", status -> answer(
                body ? "invalid_request: a malformed path or body" : "invalid_request: a malformed path"));
        if (body) {
            responses.computeIfAbsent("413", status -> answer(
                    "payload_too_large: the body is larger than this service reads"));
            responses.computeIfAbsent("415", status -> answer("unsupported_media_type: the body is not JSON"));
        }
        // ApiProblemHandler answers 503 whenever Redis does not answer, on any route
        responses.computeIfAbsent("503", status -> answer(
                "unavailable: the queue store did not answer in time; try again after Retry-After"));
        for (Map.Entry<String, ApiResponse> entry : responses.entrySet()) {
            if (isRefusal(entry.getKey())) {
                refusal(entry.getKey(), entry.getValue());
            }
        }
        operation.setResponses(inStatusOrder(responses));
    }

    private static ApiResponse answer(String description) {
        return new ApiResponse().description(description);
    }

    private static boolean isRefusal(String status) {
        return status.startsWith("4") || status.startsWith("5");
    }

    private static void refusal(String status, ApiResponse response) {
        response.setContent(ProblemSchema.content());
        if (status.equals("429") || status.equals("503")) {
            response.addHeaderObject(HttpHeaders.RETRY_AFTER, new Header()
                .description("Seconds to wait before trying again")
                .schema(new IntegerSchema().minimum(BigDecimal.ONE)));
        }
        if (status.equals("401")) {
            response.addHeaderObject(HttpHeaders.WWW_AUTHENTICATE, new Header()
                .description("Bearer: the scheme the endpoint expects")
                .schema(new StringSchema()));
        }
    }

    /** Springdoc keeps declaration order; a reader looks for a status in numeric order. */
    private static ApiResponses inStatusOrder(ApiResponses responses) {
        ApiResponses sorted = new ApiResponses();
        sorted.setExtensions(responses.getExtensions());
        new TreeMap<>(responses).forEach(sorted::addApiResponse);
        return sorted;
    }
}
