package io.queuegate.ingest.page;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * {@code Referrer-Policy: no-referrer} on everything WebFlux answers: the waiting page, its scripts and styles
 * ({@code /web/waiting-room/*}, served at the root), and every refusal. A browser then sends no {@code Referer} from
 * the page or from what it loads: the page's address, and a token should one ever be in it, reach no other site, no
 * proxy's log and no analytics service by that header.
 */
@Component
class NoReferrer implements WebFilter {

    static final String HEADER = "Referrer-Policy";

    static final String NO_REFERRER = "no-referrer";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        exchange.getResponse().getHeaders().set(HEADER, NO_REFERRER);
        return chain.filter(exchange);
    }
}
