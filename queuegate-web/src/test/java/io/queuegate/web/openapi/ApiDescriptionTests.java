package io.queuegate.web.openapi;

import java.util.List;

import io.queuegate.web.ProblemCodes;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the description adds to an operation that only says what is particular to it, as springdoc builds it. */
class ApiDescriptionTests {

    private final ApiDescriptionConfiguration configuration = new ApiDescriptionConfiguration();

    @Test
    void aRefusalIsAProblemEvenWhereSpringdocGuessedTheSuccessBody() {
        Operation enter = new Operation().requestBody(new RequestBody().content(json("EnterRequest")))
            .responses(new ApiResponses()
                .addApiResponse("202", new ApiResponse().description("Accepted").content(json("EntryAccepted")))
                .addApiResponse("409", new ApiResponse().description("queue_closed").content(json("EntryAccepted")))
                .addApiResponse("503", new ApiResponse().description("unavailable").content(json("EntryAccepted"))));

        OpenAPI api = described(enter);

        ApiResponses responses = enter.getResponses();
        assertThat(responses.keySet()).containsExactly("202", "400", "409", "413", "415", "503");
        assertThat(responses.get("202").getContent()).isEqualTo(json("EntryAccepted"));
        assertThat(responses.get("409").getDescription()).isEqualTo("queue_closed");
        for (String status : List.of("400", "409", "413", "415", "503")) {
            assertThat(responses.get(status).getContent().keySet()).as(status)
                .containsExactly("application/problem+json");
            assertThat(responses.get(status).getContent().get("application/problem+json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/Problem");
        }
        assertThat(responses.get("503").getHeaders()).containsKey("Retry-After");
        assertThat(api.getComponents().getSchemas().get("Problem").getRequired())
            .containsExactly("title", "status", "code");
    }

    @Test
    void theCodeEnumIsEveryConstantOfProblemCodes() {
        Schema<?> code = (Schema<?>) ProblemSchema.schema().getProperties().get("code");

        List<String> codes = code.getEnum().stream().map(String::valueOf).toList();
        assertThat(codes).contains(ProblemCodes.INVALID_REQUEST, ProblemCodes.UNAVAILABLE, ProblemCodes.SOLD_OUT,
                ProblemCodes.INTERNAL_ERROR);
        assertThat(codes).hasSameSizeAs(ProblemCodes.class.getFields()).doesNotHaveDuplicates();
    }

    @Test
    void aPublicOperationSaysSoAndADescriptionWithoutAdminOperationsHasNoAdminScheme() {
        Operation status = new Operation().responses(new ApiResponses());

        OpenAPI api = described(status);

        assertThat(status.getSecurity()).isEmpty();
        assertThat(status.getResponses()).doesNotContainKey("401");
        assertThat(api.getComponents().getSecuritySchemes()).isNullOrEmpty();
    }

    @Test
    void anAdminOperationAnswers401AndItsDescriptionDeclaresTheBearerScheme() {
        Operation put = new Operation().responses(new ApiResponses())
            .security(List.of(new SecurityRequirement().addList(CallerRequirements.ADMIN)));

        OpenAPI api = described(put);

        assertThat(put.getResponses().get("401").getHeaders()).containsKey("WWW-Authenticate");
        assertThat(put.getResponses().get("401").getContent()).containsKey("application/problem+json");
        SecurityScheme scheme = api.getComponents().getSecuritySchemes().get(CallerRequirements.ADMIN);
        assertThat(scheme.getType()).isEqualTo(SecurityScheme.Type.HTTP);
        assertThat(scheme.getScheme()).isEqualTo("bearer");
    }

    @Test
    void theServerIsWhereverTheDescriptionWasFetchedAndTheLicenseIsNamedBySpdx() {
        OpenAPI api = this.configuration.queuegateOpenApi("ingest-service");

        assertThat(api.getServers()).singleElement().satisfies(server -> assertThat(server.getUrl()).isEqualTo("/"));
        assertThat(api.getInfo().getLicense().getIdentifier()).isEqualTo("Apache-2.0");
    }

    private OpenAPI described(Operation operation) {
        OpenAPI api = this.configuration.queuegateOpenApi("test").components(new Components())
            .paths(new Paths().addPathItem("/api/v1/things/{productId}", new PathItem().post(operation)));
        this.configuration.queuegateAnswers().customise(api);
        return api;
    }

    private static Content json(String schema) {
        return new Content().addMediaType("application/json",
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + schema)));
    }
}
