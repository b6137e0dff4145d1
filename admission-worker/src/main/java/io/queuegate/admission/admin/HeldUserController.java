package io.queuegate.admission.admin;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.event.UserHeld;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.queue.QueueScripts;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.UserIds;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableTopic;
import io.queuegate.web.DurableWrite;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Held users, the "infinite queue" of the waiting rooms people pay for: the operator holds a user it suspects (a
 * bot, a reseller) and that user goes on reading WAITING with a position, and is never admitted, until released at
 * the same place. Stored in the sale topic first (a release is a tombstone), so a Redis that loses the hold gets it
 * back from the log; audited as HELD and RELEASED.
 */
@RestController
@RequestMapping(path = "/api/v1/queues/{productId}/held-users", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues", description = "Queue administration (Authorization: Bearer <admin token>)")
@SecurityRequirement(name = "admin")
class HeldUserController {

    /** The most users one line holds: the admission step passes over held users, so they bound its work. */
    static final int MAX_HELD = 10_000;

    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

    private static final RedisScript<Long> HOLD_USER = QueueScripts.of("hold_user", Long.class);

    private final StringRedisTemplate redis;

    private final QueueStore queues;

    private final Keyspace keyspace;

    private final DurableTopic<UserHeld> sale;

    HeldUserController(StringRedisTemplate redis, QueueStore queues, Keyspace keyspace,
            KafkaTemplate<String, UserHeld> kafka, AdmissionProperties properties) {
        this.redis = redis;
        this.queues = queues;
        this.keyspace = keyspace;
        this.sale = new DurableTopic<>(kafka, properties.saleTopic(), PUBLISH_TIMEOUT);
    }

    @GetMapping
    @Operation(summary = "List the held users", description = "The users of this line the operator holds, sorted.")
    @ApiResponse(responseCode = "200", description = "The held users")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    HeldUsers listHeldUsers(@PathVariable("productId") String productIdText) {
        QueueKeys keys = knownQueue(productIdText);
        Set<String> held = this.redis.opsForSet().members(keys.held());
        return new HeldUsers(held == null ? List.of() : List.copyOf(new TreeSet<>(held)));
    }

    @PutMapping("/{userId}")
    @Operation(summary = "Hold a user", description = """
            The user keeps the place in line (or takes one on entering) and reads WAITING with a position, but is \
            never admitted until released. Holding again changes nothing. Audited as HELD.""")
    @ApiResponse(responseCode = "204", description = "The user is held")
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId or userId")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "409", description = "too_many_held: the line holds " + MAX_HELD + " users already")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka, so nothing changed")
    ResponseEntity<Void> holdUser(@PathVariable("productId") String productIdText, @PathVariable String userId) {
        QueueKeys keys = knownQueue(productIdText);
        String user = validUser(userId);
        if (!Boolean.TRUE.equals(this.redis.opsForSet().isMember(keys.held(), user))) {
            Long size = this.redis.opsForSet().size(keys.held());
            if (size != null && size >= MAX_HELD) {
                throw tooMany();
            }
        }
        store(keys.productId(), user, true);
        if (hold(keys, user, true) < 0) {
            // another hold took the last room meanwhile: the log must not keep a hold Redis refused
            store(keys.productId(), user, false);
            throw tooMany();
        }
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/{userId}")
    @Operation(summary = "Release a held user", description = """
            The user is admitted from the place kept, as if never held. Releasing a user not held changes nothing. \
            Audited as RELEASED.""")
    @ApiResponse(responseCode = "204", description = "The user is not held")
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId or userId")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka, so nothing changed")
    ResponseEntity<Void> releaseUser(@PathVariable("productId") String productIdText, @PathVariable String userId) {
        QueueKeys keys = knownQueue(productIdText);
        String user = validUser(userId);
        store(keys.productId(), user, false);
        hold(keys, user, false);
        return ResponseEntity.noContent().build();
    }

    private QueueKeys knownQueue(String productIdText) {
        long productId = ProductIds.parse(productIdText);
        if (this.queues.findSettings(productId).isEmpty()) {
            throw ApiException.queueNotFound(productId);
        }
        return this.keyspace.product(productId);
    }

    private static String validUser(String userId) {
        if (!UserIds.isValid(userId)) {
            throw new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_REQUEST,
                    "userId must be 1-64 characters of [A-Za-z0-9._@:-].");
        }
        return userId;
    }

    /** In the log first: a Redis that loses the hold or the release gets it back from there. */
    private void store(long productId, String userId, boolean held) {
        DurableWrite.orUnavailable(() -> this.sale.send(UserHeld.key(productId, userId),
                held ? new UserHeld(productId, userId, System.currentTimeMillis()) : null),
                "The change could not be stored durably; nothing changed, try again.",
                DurableWrite.OPERATOR_RETRY_AFTER);
    }

    private long hold(QueueKeys keys, String userId, boolean held) {
        Long changed = this.redis.execute(HOLD_USER, List.of(keys.held(), keys.audit()), held ? "1" : "0", userId,
                Integer.toString(MAX_HELD));
        return changed == null ? 0 : changed;
    }

    private static ApiException tooMany() {
        return new ApiException(HttpStatus.CONFLICT, ProblemCodes.TOO_MANY_HELD,
                "The line holds " + MAX_HELD + " users already; release some first.");
    }

    /** @param users the held users, sorted */
    record HeldUsers(List<String> users) {
    }
}
