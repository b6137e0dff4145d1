package io.queuegate.web.reactive;

import io.queuegate.web.RequestIds;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Gives every request on the reactive stack its id ({@link RequestIds}): echoed in the response and kept as the
 * exchange attribute {@link RequestIds#KEY} for the handlers that pass it on.
 */
public class RequestIdWebFilter implements WebFilter, Ordered {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String requestId = RequestIds.idFor(exchange.getRequest().getHeaders().getFirst(RequestIds.HEADER));
        exchange.getResponse().getHeaders().set(RequestIds.HEADER, requestId);
        exchange.getAttributes().put(RequestIds.KEY, requestId);
        return chain.filter(exchange);
    }

    /** The exchange's request id, or a new one when the filter did not see it. */
    public static String of(ServerWebExchange exchange) {
        String requestId = exchange.getAttribute(RequestIds.KEY);
        return requestId != null ? requestId : RequestIds.newId();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
