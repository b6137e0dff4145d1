package io.queuegate.ingest.status;

import io.queuegate.ingest.EntriesResource;
import io.queuegate.ingest.IssuedTokens;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Flux;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;

/** A place followed as Server-Sent Events ({@link EntryStreams}), instead of polled. */
@EntriesResource
record EntryEventsController(IssuedTokens issued, EntryStreams streams) {

    @GetMapping(path = "/{token}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(operationId = "followEntry", summary = "Follow a place as events", description = """
            text/event-stream: an event (named by the status, data as a poll's answer) whenever the status, the \
            position band (exact below 100, then two significant digits) or the ETA's changes; an admission is told as \
            soon as the admission step announces it, and a place near the front is read every step (100 ms) besides; \
            the stream ends after EXPIRED. An admitted place goes on being told: it reads SOLD_OUT while the stock is \
            0 and AVAILABLE again if stock returns within the admission. Each event's id says what it told: \
            reconnecting with Last-Event-ID skips an event that would say it again. A comment every 15 s keeps proxies \
            from closing a quiet stream. A product with too many streams at this instance answers one event 'poll' \
            (poll instead, after pollAfterMs) and closes; reads that fail for 10 s end the stream with an event \
            'problem' and the retry to reconnect after.""")
    @ApiResponse(responseCode = "200", description = "The place's events")
    @ApiResponse(responseCode = "400", description = IssuedTokens.REFUSALS)
    Flux<ServerSentEvent<EntryStatusResponse>> events(@PathVariable("productId") String productIdText,
            @PathVariable String token,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        return this.streams.stream(this.issued.verify(productIdText, token), lastEventId);
    }
}
