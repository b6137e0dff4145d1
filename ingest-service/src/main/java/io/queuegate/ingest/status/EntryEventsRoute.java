package io.queuegate.ingest.status;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.TokenRoute;
import io.queuegate.web.RequestIds;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;

/**
 * {@code GET /api/v1/queues/{productId}/entries/{token}/events} on the front: the place's events
 * ({@link EntryStreams}) written by the connection's event loop as {@code text/event-stream}, without WebFlux's
 * exchange, codecs and operators beside each of the tens of thousands of open streams. A cross-origin stream goes
 * through WebFlux to {@link EntryEventsController}, which answers it with the CORS headers; both write the same events.
 */
@Component
class EntryEventsRoute extends TokenRoute {

    private static final String LAST_EVENT_ID = "Last-Event-ID";

    private final EntryStreams streams;

    private final JsonMapper json;

    EntryEventsRoute(IssuedTokens issued, EntryStreams streams, FrontReplies replies, JsonMapper json) {
        super(DoorRoute.Kind.EVENTS, issued, replies);
        this.streams = streams;
        this.json = json;
    }

    @Override
    protected Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, String requestId,
            Token token) {
        return response.status(HttpResponseStatus.OK)
            .header(HttpHeaders.CONTENT_TYPE, MediaType.TEXT_EVENT_STREAM_VALUE)
            .header(HttpHeaders.CACHE_CONTROL, "no-cache")
            .header(RequestIds.HEADER, requestId)
            .sendObject(this.streams.stream(token, request.requestHeaders().get(LAST_EVENT_ID)).map(this::frame))
            .then();
    }

    /** One event as the {@code text/event-stream} format writes it, as Spring's writer does for the other path. */
    private ByteBuf frame(ServerSentEvent<EntryStatusResponse> event) {
        StringBuilder text = new StringBuilder(64);
        if (event.id() != null) {
            text.append("id:").append(event.id()).append('\n');
        }
        if (event.event() != null) {
            text.append("event:").append(event.event()).append('\n');
        }
        if (event.retry() != null) {
            text.append("retry:").append(event.retry().toMillis()).append('\n');
        }
        if (event.comment() != null) {
            text.append(':').append(event.comment()).append('\n');
        }
        if (event.data() != null) {
            text.append("data:").append(this.json.writeValueAsString(event.data())).append('\n');
        }
        text.append('\n');
        return Unpooled.wrappedBuffer(text.toString().getBytes(StandardCharsets.UTF_8));
    }
}
