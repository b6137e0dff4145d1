package io.queuegate.ingest.leave;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.token.Token;
import io.queuegate.ingest.EntriesResource;
import io.queuegate.ingest.IssuedTokens;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** Gives up a place: stored in the log first, then taken out of the line or the admitted set. */
@EntriesResource
class LeaveController {

    private final IssuedTokens issued;

    private final Leaving remover;

    private final LeavePublisher leaving;

    private final Counter leaves;

    LeaveController(IssuedTokens issued, Leaving remover, LeavePublisher leaving, MeterRegistry metrics) {
        this.issued = issued;
        this.remover = remover;
        this.leaving = leaving;
        this.leaves = metrics.counter("queuegate.leaves");
    }

    @DeleteMapping("/{token}")
    @Operation(summary = "Leave the line", description = "Gives up the place or frees the entry slot.")
    @ApiResponse(responseCode = "204", description = "The place is gone")
    @ApiResponse(responseCode = "503", description = "unavailable: the leave could not be stored; try again")
    @ApiResponse(responseCode = "400", description = "invalid_token: not issued here, or for another product; "
            + "invalid_request: a malformed productId")
    Mono<ResponseEntity<Void>> leave(@PathVariable("productId") String productIdText, @PathVariable String token) {
        long productId = ProductIds.parse(productIdText);
        Token verified = this.issued.verify(productId, token);
        // waits for Kafka's acknowledgement and Redis: off the event loops
        return Mono.fromCallable(() -> {
            // in the log first: a Redis that loses the leave gets it back from there, and nobody who left comes back
            this.leaving.publish(verified);
            if (this.remover.remove(verified)) {
                this.leaves.increment();
            }
            return ResponseEntity.noContent().<Void>build();
        }).subscribeOn(Schedulers.boundedElastic());
    }
}
