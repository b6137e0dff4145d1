package io.queuegate.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API descriptions committed under {@code docs/openapi/} are the ones the services serve at {@code /v3/api-docs}:
 * a change to an endpoint or to how it is described shows up as a change of those files in review, and the lint in
 * CI ({@code scripts/openapi-lint.sh}) checks what is committed. With {@code -Dopenapi.write=true} (what
 * {@code scripts/openapi.sh} runs) the test rewrites the files instead of comparing.
 */
class ApiDescriptionSystemTests {

    private static final Path DOCS = Path.of("..", "docs", "openapi");

    private static final String REGENERATE = "if the change is intended, run scripts/openapi.sh (this test with "
            + "-Dopenapi.write=true) and commit docs/openapi/";

    private final Stack stack = Stack.get();

    @Test
    void theCommittedDescriptionsAreTheServedOnes() throws IOException {
        boolean write = Boolean.getBoolean("openapi.write");
        Map<String, ConfigurableApplicationContext> services = Map.of("ingest-service", this.stack.ingest,
                "admission-worker", this.stack.worker, "booking-service", this.stack.booking);
        List<String> differing = new ArrayList<>();
        for (Map.Entry<String, ConfigurableApplicationContext> service : services.entrySet()) {
            Stack.Reply reply = this.stack.send("GET", Stack.url(service.getValue(), "/v3/api-docs"), null, null,
                    Map.of());
            assertThat(reply.status()).as(service.getKey() + " /v3/api-docs").isEqualTo(200);
            String served = ApiDescriptions.canonical(reply.json());
            Path file = DOCS.resolve(service.getKey() + ".json");
            if (write) {
                Files.createDirectories(DOCS);
                Files.writeString(file, served, StandardCharsets.UTF_8);
                continue;
            }
            String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            String difference = ApiDescriptions.firstDifference(committed, served);
            if (difference != null) {
                differing.add("docs/openapi/" + file.getFileName() + " differs from the " + service.getKey()
                        + "'s /v3/api-docs " + difference);
            }
        }
        assertThat(differing).as(REGENERATE).isEmpty();
    }

    @Test
    void aRefusalHasEveryMemberTheProblemSchemaRequires() {
        JsonNode api = this.stack.send("GET", Stack.url(this.stack.ingest, "/v3/api-docs"), null, null, Map.of())
            .json();
        JsonNode schema = api.at("/components/schemas/Problem");
        List<Stack.Reply> refusals = List.of(this.stack.enter(0, "u-1"), this.stack.status(Stack.newProduct(), "x"),
                this.stack.send("GET", Stack.url(this.stack.worker, "/api/v1/queues/1"), null, null, Map.of()));
        for (Stack.Reply refusal : refusals) {
            assertThat(refusal.header("Content-Type")).startsWith("application/problem+json");
            JsonNode problem = refusal.json();
            schema.at("/required").forEach(member -> assertThat(problem.has(member.asString()))
                .as(member.asString() + " in " + problem).isTrue());
            assertThat(schema.at("/properties/code/enum").valueStream().map(JsonNode::asString))
                .contains(problem.get("code").asString());
        }
    }

    @Test
    void everyErrorAnswerIsAProblemWithACode() {
        for (ConfigurableApplicationContext service : List.of(this.stack.ingest, this.stack.worker,
                this.stack.booking)) {
            JsonNode api = this.stack.send("GET", Stack.url(service, "/v3/api-docs"), null, null, Map.of()).json();
            assertThat(api.at("/components/schemas/Problem/properties/code/enum").valueStream()
                .map(JsonNode::asString)).contains("invalid_request", "unavailable", "internal_error");
            api.at("/paths").forEachEntry((path, item) -> item.forEachEntry((method, operation) -> {
                String where = method + " " + path;
                // springdoc numbers a repeated method name (get_1) in an order it does not promise
                assertThat(operation.at("/operationId").asString()).as(where + " needs an operationId of its own")
                    .doesNotMatch(".*_\\d+");
                assertThat(operation.has("security")).as(where + " says who may call it").isTrue();
                operation.at("/responses").forEachEntry((status, response) -> {
                    if (status.startsWith("4") || status.startsWith("5")) {
                        assertThat(response.at("/content/application~1problem+json/schema/$ref").asString())
                            .as(where + " " + status).isEqualTo("#/components/schemas/Problem");
                        assertThat(response.at("/content").size()).as(where + " " + status).isOne();
                    }
                    if (status.equals("503") || status.equals("429")) {
                        assertThat(response.at("/headers/Retry-After").isMissingNode()).as(where + " " + status)
                            .isFalse();
                    }
                });
            }));
        }
    }
}
