package io.queuegate.ingest.front;

import reactor.netty.http.server.HttpServerRoutes;

/**
 * Requests the front answers itself, on its event loops, instead of handing them to the servlet stack. A fast path
 * answers only what it can decide without blocking (a well-formed request of a known queue); whatever else it is
 * given it forwards to {@link ServletBackend}, whose answer, refusal or problem is the service's one.
 */
public interface FastPath {

    /** Adds this path's routes; the front adds the route to the servlet stack after all of them. */
    void addTo(HttpServerRoutes routes, ServletBackend backend);
}
