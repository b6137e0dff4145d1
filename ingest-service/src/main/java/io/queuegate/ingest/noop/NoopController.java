package io.queuegate.ingest.noop;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The benchmark's yardstick: the enter endpoint's HTTP stack (Tomcat, JSON in and out, the same filters)
 * with no work behind it. Off unless {@code queuegate.ingest.noop-endpoint=true}.
 */
@Hidden
@RestController
@ConditionalOnBooleanProperty("queuegate.ingest.noop-endpoint")
class NoopController {

    @PostMapping(path = "/bench/noop/{productId}/entries", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    NoopReply enter(@PathVariable long productId, @RequestBody NoopRequest request) {
        // answered like the enter endpoint answers: the body, not a ResponseEntity (whose early flush makes Tomcat
        // send a chunked answer in two writes, a fifth of this endpoint's CPU when it did)
        return new NoopReply(request.userId(), productId, "PENDING");
    }

    @GetMapping(path = "/bench/noop/{productId}/entries/{token}",
            produces = MediaType.APPLICATION_JSON_VALUE)
    NoopReply status(@PathVariable long productId, @PathVariable String token) {
        return new NoopReply(token, productId, "WAITING");
    }

    record NoopRequest(String userId) {
    }

    record NoopReply(String token, long productId, String status) {
    }
}
