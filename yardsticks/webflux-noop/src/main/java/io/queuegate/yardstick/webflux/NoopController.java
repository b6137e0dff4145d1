package io.queuegate.yardstick.webflux;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The plain no-op's controller, unchanged: constant answers, the request body never read. */
@RestController
class NoopController {

    private static final String ENTERED = "{\"token\":\"noop\",\"status\":\"PENDING\"}";

    private static final String WAITING = "{\"token\":\"noop\",\"status\":\"WAITING\",\"position\":1}";

    @PostMapping(path = "/api/v1/queues/{productId}/entries", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> enter() {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(ENTERED);
    }

    @GetMapping(path = "/api/v1/queues/{productId}/entries/{token}", produces = MediaType.APPLICATION_JSON_VALUE)
    String status() {
        return WAITING;
    }
}
