package io.queuegate.ingest.front;

import io.queuegate.ingest.BurstPathObservations;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

/**
 * A request handed to WebFlux with the route the front decided for it, so that what WebFlux does by kind of request
 * ({@link BurstPathObservations}) reads that decision, and with the body the front already read, when it read one.
 */
public final class RoutedRequest extends ServerHttpRequestDecorator {

    private final DoorRoute route;

    private final byte[] body;

    RoutedRequest(ServerHttpRequest request, DoorRoute route, byte[] body) {
        super(request);
        this.route = route;
        this.body = body;
    }

    /** The route of {@code request}, or null when it did not come through the front. */
    public static DoorRoute routeOf(ServerHttpRequest request) {
        ServerHttpRequest next = request;
        while (next instanceof ServerHttpRequestDecorator decorator) {
            if (decorator instanceof RoutedRequest routed) {
                return routed.route;
            }
            next = decorator.getDelegate();
        }
        return null;
    }

    @Override
    public Flux<DataBuffer> getBody() {
        return this.body == null ? super.getBody()
                : Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(this.body)));
    }
}
