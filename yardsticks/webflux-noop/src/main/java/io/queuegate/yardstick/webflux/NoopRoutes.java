package io.queuegate.yardstick.webflux;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The plain no-op's constant answers as WebFlux functional routes, the leanest way Spring WebFlux maps a request (an
 * annotated controller measured the same); the request body is never read.
 */
@Configuration(proxyBeanMethods = false)
class NoopRoutes {

    private static final String ENTERED = "{\"token\":\"noop\",\"status\":\"PENDING\"}";

    private static final String WAITING = "{\"token\":\"noop\",\"status\":\"WAITING\",\"position\":1}";

    @Bean
    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
            .POST("/api/v1/queues/{productId}/entries",
                    (request) -> ServerResponse.accepted().contentType(MediaType.APPLICATION_JSON).bodyValue(ENTERED))
            .GET("/api/v1/queues/{productId}/entries/{token}",
                    (request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(WAITING))
            .build();
    }
}
