package io.queuegate.ingest.front;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpStatus;

/**
 * The limits a request meets at the door by who sent it: its connection past the caps on connections
 * ({@link ConnectionLimits}), or its client past the allowance its kind of request is taken from
 * ({@link PerClientLimits}, {@link DoorRoute#allowance()}). The probes never come here.
 */
final class DoorLimits {

    private final ClientAddresses clients;

    /** Null when per-client limits are off. */
    private final PerClientLimits perClient;

    private final Duration retryAfter;

    DoorLimits(ClientAddresses clients, PerClientLimits perClient, Duration retryAfter) {
        this.clients = clients;
        this.perClient = perClient;
        this.retryAfter = retryAfter;
    }

    /**
     * The refusal of the request, null when it may go on. A connection past the caps is closed after its answer; a
     * client past its allowance is told when it may try again.
     */
    ApiException refusal(HttpServerRequest request, HttpServerResponse response, DoorRoute route) {
        boolean[] excess = new boolean[1];
        request.withConnection((connection) -> excess[0] = ConnectionLimits.excess(connection.channel()));
        if (excess[0]) {
            response.keepAlive(false);
            return ApiException.unavailable("Too many connections at once; try again shortly.", this.retryAfter);
        }
        PerClientLimits.Kind allowance = route.allowance();
        InetSocketAddress remote = request.remoteAddress();
        if (this.perClient == null || allowance == null || remote == null || remote.getAddress() == null) {
            return null;
        }
        InetAddress client = this.clients.clientOf(remote.getAddress(),
                request.requestHeaders().getAll(ClientAddresses.FORWARDED_FOR));
        Duration wait = this.perClient.refusal(allowance, client);
        return wait == null ? null : new ApiException(HttpStatus.TOO_MANY_REQUESTS, ProblemCodes.TOO_MANY_REQUESTS,
                "Too many requests from your address; try again in " + Math.max(1, (wait.toMillis() + 999) / 1000)
                        + " s.", wait);
    }
}
