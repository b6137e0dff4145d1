package io.queuegate.ingest.front;

import reactor.netty.http.server.HttpServerRoutes;

/**
 * Requests the front answers itself, on its event loops, without Spring WebFlux. A fast path answers only what it
 * can decide without blocking (a well-formed request of a known queue, from this origin); whatever else it is given it
 * hands to {@link WebFluxStack}, whose answer, refusal or problem is the service's one.
 */
public interface FastPath {

    /** Adds this path's routes; the front adds the route to WebFlux after all of them. */
    void addTo(HttpServerRoutes routes, WebFluxStack webFlux);
}
