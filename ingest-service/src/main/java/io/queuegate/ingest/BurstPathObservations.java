package io.queuegate.ingest;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Leaves the two paths a burst hits, enter ({@code POST /api/v1/queues/{p}/entries}) and poll
 * ({@code GET /api/v1/queues/{p}/entries/{token}}), out of Spring's per-request HTTP observation: no
 * {@code http.server.requests} timer sample and no server span per request. Every other request is observed as
 * usual.
 *
 * <p>On these two paths the observation (timer, histogram, span and scope) was about 7 % of a poll's CPU in a
 * profile, the largest single cost above the plain HTTP stack (docs/BENCHMARKS.md). What it told is kept more cheaply: the enter and poll counters count every answer by
 * outcome, the group commit times each round's publish, and the coalescer counts polls per Redis call. Setting
 * {@code queuegate.ingest.observe-burst-paths=true} observes them per request again, e.g. to trace one user.
 */
public final class BurstPathObservations implements ObservationPredicate {

    private static final String PREFIX = "/api/v1/queues/";

    private static final String ENTRIES = "/entries";

    @Override
    public boolean test(String name, Observation.Context context) {
        if (!(context instanceof ServerRequestObservationContext server)) {
            return true;
        }
        ServerHttpRequest request = server.getCarrier();
        return !isBurstPath(request.getMethod().name(), request.getPath().value());
    }

    /** Whether the request is an enter or a poll: decided from the raw path, before any handler is mapped. */
    static boolean isBurstPath(String method, String path) {
        if (path == null || !path.startsWith(PREFIX)) {
            return false;
        }
        int productEnd = path.indexOf('/', PREFIX.length());
        if (productEnd <= PREFIX.length() || !path.startsWith(ENTRIES, productEnd)) {
            return false;
        }
        int rest = productEnd + ENTRIES.length();
        if ("POST".equals(method)) {
            return rest == path.length();
        }
        if ("GET".equals(method)) {
            return rest < path.length() && path.charAt(rest) == '/' && rest + 1 < path.length()
                    && path.indexOf('/', rest + 1) < 0;
        }
        return false;
    }
}
