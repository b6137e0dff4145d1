package io.queuegate.admission.admin;

import java.time.Duration;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.event.EntryLeft;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableTopic;
import io.queuegate.web.DurableWrite;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator ends a place: a token WAITING or AVAILABLE becomes EXPIRED, its entry slot is freed and the gate
 * refuses it. Stored in the leaves topic first, like a leave, so a Redis that loses the sale does not bring the user
 * back; audited as REVOKED.
 */
@RestController
@Tag(name = "queues", description = "Queue administration (Authorization: Bearer <admin token>)")
@SecurityRequirement(name = "admin")
class EntryRevocationController {

    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

    private final TokenCodec tokens;

    private final Leaving leaving;

    private final DurableTopic<EntryLeft> leaves;

    EntryRevocationController(TokenCodec tokens, Leaving leaving, KafkaTemplate<String, EntryLeft> kafka,
            AdmissionProperties properties) {
        this.tokens = tokens;
        this.leaving = leaving;
        this.leaves = new DurableTopic<>(kafka, properties.leavesTopic(), PUBLISH_TIMEOUT);
    }

    @DeleteMapping("/api/v1/queues/{productId}/entries/{token}")
    @Operation(summary = "Revoke a place", description = """
            Ends the token's place, waiting or admitted: its status becomes EXPIRED, its entry slot is freed for the \
            next in line, and the booking gate refuses it. Audited as REVOKED. Revoking again, or a token without a \
            place, changes nothing and answers 204.""")
    @ApiResponse(responseCode = "204", description = "The place is gone")
    @ApiResponse(responseCode = "400", description = """
            invalid_token: not issued by this deployment, or for another product; invalid_request: a malformed \
            productId""")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka, so nothing changed")
    ResponseEntity<Void> revoke(@PathVariable("productId") String productIdText, @PathVariable String token) {
        long productId = ProductIds.parse(productIdText);
        Token verified = this.tokens.verify(token, productId)
            .orElseThrow(() -> new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_TOKEN,
                    "The token was not issued by this deployment for product " + productId + "."));
        // in the log first: a Redis that loses the revocation gets it back from there
        DurableWrite.orUnavailable(() -> this.leaves.send(Long.toString(productId),
                new EntryLeft(productId, verified.userId(), System.currentTimeMillis())),
                "The revocation could not be stored durably; nothing changed, try again.",
                DurableWrite.OPERATOR_RETRY_AFTER);
        this.leaving.revoke(verified);
        return ResponseEntity.noContent().build();
    }
}
