package io.queuegate.ingest.leave;

import io.queuegate.core.token.Token;
import io.queuegate.ingest.EntriesResource;
import io.queuegate.ingest.IssuedTokens;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** Gives up a place ({@link Leaves}): stored in the log first, then taken out of the line or the admitted set. */
@EntriesResource
record LeaveController(IssuedTokens issued, Leaves leaves) {

    @DeleteMapping("/{token}")
    @Operation(summary = "Leave the line", description = "Gives up the place or frees the entry slot.")
    @ApiResponse(responseCode = "204", description = "The place is gone")
    @ApiResponse(responseCode = "503", description = "unavailable: the leave could not be stored; try again")
    @ApiResponse(responseCode = "400", description = IssuedTokens.REFUSALS)
    Mono<ResponseEntity<Void>> leave(@PathVariable("productId") String productIdText, @PathVariable String token) {
        Token verified = this.issued.verify(productIdText, token);
        // waits for Kafka's acknowledgement and Redis: off the event loops
        return Mono.fromCallable(() -> {
            this.leaves.leave(verified);
            return ResponseEntity.noContent().<Void>build();
        }).subscribeOn(Schedulers.boundedElastic());
    }
}
