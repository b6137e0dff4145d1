package io.queuegate.ingest;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.RoutedRequest;

import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Leaves the two paths a burst hits, enter ({@code POST /api/v1/queues/{p}/entries}) and poll
 * ({@code GET /api/v1/queues/{p}/entries/{token}}), as the front decided it ({@link DoorRoute}), out of Spring's
 * per-request HTTP observation: no
 * {@code http.server.requests} timer sample and no server span per request. Every other request is observed as
 * usual.
 *
 * <p>On these two paths the observation (timer, histogram, span and scope) was about 7 % of a poll's CPU in a
 * profile, the largest single cost above the plain HTTP stack (docs/BENCHMARKS.md). What it told is kept more cheaply: the enter and poll counters count every answer by
 * outcome, the group commit times each round's publish, and the coalescer counts polls per Redis call. Setting
 * {@code queuegate.ingest.observe-burst-paths=true} observes them per request again, e.g. to trace one user.
 */
public final class BurstPathObservations implements ObservationPredicate {

    @Override
    public boolean test(String name, Observation.Context context) {
        if (!(context instanceof ServerRequestObservationContext server)) {
            return true;
        }
        DoorRoute route = RoutedRequest.routeOf(server.getCarrier());
        return route == null || !route.kind().burst();
    }
}
