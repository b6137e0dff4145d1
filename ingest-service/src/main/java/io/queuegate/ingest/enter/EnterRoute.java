package io.queuegate.ingest.enter;

import java.util.Locale;
import java.util.Set;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.queuegate.ingest.IngestProperties;
import io.queuegate.ingest.front.DoorRoute;
import io.queuegate.ingest.front.FastPath;
import io.queuegate.ingest.front.FrontReplies;
import io.queuegate.ingest.front.SameOrigin;
import io.queuegate.ingest.front.WebFluxStack;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProductIds;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import jakarta.validation.Validator;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * {@code POST /api/v1/queues/{productId}/entries} on the front: a well-formed enter is answered from Kafka's
 * acknowledgement without a thread waiting for it. Anything else (another media type, a body that is too large,
 * malformed or invalid, a cross-origin call) goes through WebFlux to {@link EnterController}, whose answer is the
 * service's.
 */
@Component
class EnterRoute implements FastPath {

    private final Enters enters;

    private final JsonMapper json;

    private final FrontReplies replies;

    private final Validator validator;

    private final long maxBodyBytes;

    EnterRoute(Enters enters, JsonMapper json, Validator validator, FrontReplies replies, IngestProperties properties) {
        this.enters = enters;
        this.json = json;
        this.validator = validator;
        this.replies = replies;
        this.maxBodyBytes = properties.maxBodyBytes();
    }

    @Override
    public Set<DoorRoute.Kind> kinds() {
        return Set.of(DoorRoute.Kind.ENTER);
    }

    @Override
    public Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, DoorRoute route,
            WebFluxStack webFlux) {
        var headers = request.requestHeaders();
        int length = headers.getInt(HttpHeaderNames.CONTENT_LENGTH, -1);
        if (!isJson(headers.get(HttpHeaderNames.CONTENT_TYPE)) || length <= 0 || length > this.maxBodyBytes
                || !SameOrigin.test(request)) {
            return webFlux.handle(request, response, route);
        }
        String requestId = FrontReplies.requestId(request);
        long productId;
        try {
            productId = ProductIds.parse(route.productId());
        }
        catch (ApiException ex) {
            return webFlux.handle(request, response, route);
        }
        return request.receive().aggregate().asByteArray().flatMap((body) -> {
            EnterRequest enter = valid(body);
            if (enter == null) {
                return webFlux.handle(request, response, route, body);
            }
            String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
            return Mono.fromFuture(this.enters.enter(productId, enter, authorization, requestId))
                .flatMap((accepted) -> {
                    response.header(HttpHeaders.LOCATION, Enters.location(accepted));
                    return this.replies.answer(response, HttpResponseStatus.ACCEPTED, requestId, accepted);
                })
                .onErrorResume((failure) -> this.replies.failure(request, response, requestId, failure));
        });
    }

    /**
     * The body when it is a valid enter request, by the constraints declared on {@link EnterRequest} (the ones
     * {@link EnterController} checks with {@code @Valid}); null for whatever WebFlux must refuse.
     */
    private EnterRequest valid(byte[] body) {
        try {
            EnterRequest request = this.json.readValue(body, EnterRequest.class);
            return request != null && this.validator.validate(request).isEmpty() ? request : null;
        }
        catch (JacksonException ex) {
            return null;
        }
    }

    /** JSON in UTF-8 (said or not): what WebFlux reads. Any other charset is its to refuse. */
    private static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].trim().equalsIgnoreCase("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim().toLowerCase(Locale.ROOT);
            if (!parameter.equals("charset=utf-8") && !parameter.equals("charset=\"utf-8\"")) {
                return false;
            }
        }
        return true;
    }
}
