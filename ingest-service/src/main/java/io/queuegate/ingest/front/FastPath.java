package io.queuegate.ingest.front;

import java.util.Set;

import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Requests the front answers itself, on its event loops, without Spring WebFlux. A fast path answers only what it
 * can decide without blocking (a well-formed request of a known queue, from this origin); whatever else it is given it
 * hands to {@link WebFluxStack}, whose answer, refusal or problem is the service's one.
 */
public interface FastPath {

    /** The kinds of request this path answers: the front hands it every request of these kinds. */
    Set<DoorRoute.Kind> kinds();

    /** Answers a request of one of its {@link #kinds()}, with the product and token its route names. */
    Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route, WebFluxStack webFlux);
}
