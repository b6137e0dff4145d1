package io.queuegate.yardstick.seed;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The seed's endpoints on Queuegate's paths, so that the same load scripts drive both. Enter binds the JSON body and
 * answers 202 with the bare token once Redis has it, as the post does.
 */
@RestController
@RequestMapping("/api/v1/queues/{productId}/entries")
class WaitingController {

    private final WaitingService waiting;

    WaitingController(WaitingService waiting) {
        this.waiting = waiting;
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> enter(@PathVariable long productId, @RequestBody WaitingRequest request) {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(this.waiting.setWaiting(productId));
    }

    @GetMapping(path = "/{token}", produces = MediaType.APPLICATION_JSON_VALUE)
    QueueStatusResponse status(@PathVariable long productId, @PathVariable String token) {
        return this.waiting.check(token, productId);
    }
}
