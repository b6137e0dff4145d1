package io.queuegate.web;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** What Spring MVC's refusals say on the servlet stack, once {@link ApiProblemHandler} has answered them. */
class ApiProblemHandlerTests {

    private static final String TOKEN = "AQ6hBGFsaWNlTkpZbcCkz1eQ3l7v2P1gqA";

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new Revocation())
        .setControllerAdvice(new ApiProblemHandler(new StaticListableBeanFactory().getBeanProvider(MeterRegistry.class)))
        .build();

    @Test
    void anUnknownPathUnderAPlaceIsRefusedWithoutItsTokenInTheDetail() throws Exception {
        this.mvc.perform(get("/api/v1/queues/7/entries/" + TOKEN + "/nothing"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.code").value("not_found"))
            .andExpect(jsonPath("$.detail").value(containsString("/api/v1/queues/7/entries/{token}/nothing")))
            .andExpect(jsonPath("$.detail").value(not(containsString(TOKEN))));
    }

    @RestController
    static class Revocation {

        @DeleteMapping("/api/v1/queues/{productId}/entries/{token}")
        void revoke(@PathVariable String productId, @PathVariable String token) {
        }
    }
}
