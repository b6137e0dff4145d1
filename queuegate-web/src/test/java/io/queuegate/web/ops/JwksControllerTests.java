package io.queuegate.web.ops;

import io.queuegate.core.admission.AdmissionKeys;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The key set is answered to every Accept a JOSE client sends: its own media type, plain JSON (which some clients
 * send alone), both, or anything; on the servlet stack (admission worker, booking service) and on WebFlux (ingest).
 */
class JwksControllerTests {

    private final JwksController controller = new JwksController(AdmissionKeys.of(null, "jwks-controller-tests-secret"));

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(this.controller).build();

    private final WebTestClient webflux = WebTestClient.bindToController(this.controller).build();

    @Test
    void aClientAskingForJsonAloneGetsTheKeysAsJson() throws Exception {
        this.mvc.perform(get("/.well-known/jwks.json").accept(MediaType.APPLICATION_JSON))
            .andExpect(status().isOk())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
            .andExpect(jsonPath("$.keys[0].crv").value("P-256"));
        this.webflux.get().uri("/.well-known/jwks.json").accept(MediaType.APPLICATION_JSON).exchange()
            .expectStatus().isOk()
            .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
            .expectBody().jsonPath("$.keys[0].crv").isEqualTo("P-256");
    }

    @Test
    void theKeySetsOwnTypeIsAnsweredToItAndToAnyone() throws Exception {
        for (String accept : new String[] { "application/jwk-set+json", "application/jwk-set+json, application/json",
                "*/*" }) {
            this.mvc.perform(get("/.well-known/jwks.json").header("Accept", accept))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("application/jwk-set+json"));
            this.webflux.get().uri("/.well-known/jwks.json").header("Accept", accept).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith("application/jwk-set+json");
        }
        this.mvc.perform(get("/.well-known/jwks.json"))
            .andExpect(status().isOk())
            .andExpect(content().contentTypeCompatibleWith("application/jwk-set+json"));
    }

    @Test
    void aTypeThatIsNotJsonIsStillRefused() throws Exception {
        this.mvc.perform(get("/.well-known/jwks.json").accept(MediaType.TEXT_HTML))
            .andExpect(status().isNotAcceptable());
        this.webflux.get().uri("/.well-known/jwks.json").accept(MediaType.TEXT_HTML).exchange()
            .expectStatus().isEqualTo(406);
    }
}
