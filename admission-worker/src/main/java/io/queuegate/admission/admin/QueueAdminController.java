package io.queuegate.admission.admin;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.QueueView;
import io.queuegate.web.ApiException;
import io.queuegate.web.DurableWrite;
import io.queuegate.web.ProductIds;
import io.queuegate.web.egress.EgressUrls;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Creates, changes and inspects a product's queue. Needs the admin bearer token. */
@RestController
@RequestMapping(path = "/api/v1/queues", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "queues", description = "Queue administration (Authorization: Bearer <admin token>)")
@SecurityRequirement(name = "admin")
record QueueAdminController(QueueStore store, QueuePublisher publisher, EgressUrls egress,
        AdmissionProperties admission) {

    @PutMapping(path = "/{productId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create or change a queue", description = """
            maxPollsPerSecond, abandonAfterSeconds, opensAt, challengeMaxNumber, inviteOnly, passKeys, passJwksUri, \
            webhookUrl, webhookSecret, identity and returnHosts are optional; left out, they are off (a change that leaves one out \
            turns it off), except webhookSecret: left out with a webhookUrl, the secret stored is kept; and identity, \
            which is "visitor" when left out ("pass" with the older inviteOnly: true, which is kept working as \
            that).""")
    @ApiResponse(responseCode = "200", description = "The stored settings, without webhookSecret")
    @ApiResponse(responseCode = "400", description = """
            invalid_request: a number out of its range, a pass key that is not a public P-256 JWK, a passJwksUri that \
            is not an http(s) URL, both passKeys and passJwksUri, identity "pass" (or inviteOnly) without either, an \
            identity other than "visitor", "trusted" or "pass", inviteOnly with another identity, a webhookUrl that is not \
            an http(s) URL, a webhookUrl without a webhookSecret (16 to 256 characters) given or stored, or a \
            webhookSecret without a webhookUrl; a return host that is not a lower-case host name or address with an \
            optional port, or more than 20 of them; a passJwksUri or webhookUrl in plain http, unless the deployment sets \
            queuegate.egress.allow-http, or naming an address that is not public (loopback, private, link-local...), \
            unless it sets queuegate.egress.allow-private; nothing is stored""")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka, so not stored at all")
    QueueSettings put(@PathVariable("productId") String productIdText, @Valid @RequestBody QueueSettings given) {
        long productId = ProductIds.parse(productIdText);
        QueueSettings settings = keepWebhookSecret(productId, given);
        checkPasses(settings);
        checkWebhook(settings);
        checkEgress("passJwksUri", settings.passJwksUri());
        checkEgress("webhookUrl", settings.webhookUrl());
        DurableWrite.orUnavailable(() -> this.publisher.publish(productId, settings),
                "The settings could not be stored durably; nothing changed, try again.",
                DurableWrite.OPERATOR_RETRY_AFTER);
        this.store.save(productId, settings);
        return settings.withoutWebhookSecret();
    }

    /**
     * A webhook given without its secret keeps the one stored: no answer carries the secret, so a change of other
     * settings made from what a GET answered (the operator view's) could not send it back.
     */
    private QueueSettings keepWebhookSecret(long productId, QueueSettings given) {
        if (given.webhookUrl() == null || given.webhookSecret() != null) {
            return given;
        }
        return this.store.findSettings(productId)
            .map(QueueSettings::webhookSecret)
            .map(given::withWebhookSecret)
            .orElse(given);
    }

    /** A URL to post to and a secret to sign with, both or neither. */
    private static void checkWebhook(QueueSettings settings) {
        if (settings.webhookUrl() != null && !isHttpUrl(settings.webhookUrl())) {
            throw ApiException.invalidRequest("webhookUrl must be an absolute http or https URL.");
        }
        if (settings.webhookUrl() != null && settings.webhookSecret() == null) {
            throw ApiException.invalidRequest("A webhookUrl needs a webhookSecret to sign its events with.");
        }
        if (settings.webhookSecret() != null && settings.webhookUrl() == null) {
            throw ApiException.invalidRequest("A webhookSecret needs a webhookUrl to send events to.");
        }
    }

    /**
     * A URL the services may send requests to as this deployment's {@code queuegate.egress.*} says: https, and not an
     * address written literally that is not public. A host name is judged when it is connected to, by the addresses
     * it resolves to then.
     */
    private void checkEgress(String name, String url) {
        if (url != null) {
            this.egress.refusal(url).ifPresent((refusal) -> {
                throw ApiException.invalidRequest(name + " " + refusal + ".");
            });
        }
    }

    private static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            return uri.getHost() != null && uri.getRawUserInfo() == null
                    && ("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()));
        }
        catch (URISyntaxException ex) {
            return false;
        }
    }

    /** Pass keys a pass could be verified with, or where to fetch them, and an invite-only queue one can join. */
    private static void checkPasses(QueueSettings settings) {
        if (settings.passKeys() != null && settings.passJwksUri() != null) {
            throw ApiException.invalidRequest("Give passKeys or passJwksUri, not both.");
        }
        if (settings.passKeys() != null) {
            try {
                PassVerifier.parse(settings.passKeys());
            }
            catch (IllegalArgumentException ex) {
                throw ApiException.invalidRequest(ex.getMessage());
            }
        }
        if (settings.passJwksUri() != null && !PassVerifier.isKeySetUrl(settings.passJwksUri())) {
            throw ApiException.invalidRequest("passJwksUri must be an absolute http or https URL.");
        }
        if (Boolean.TRUE.equals(settings.inviteOnly()) && settings.identity() != Identity.PASS) {
            throw ApiException.invalidRequest("inviteOnly is identity \"pass\": give one or the other, not inviteOnly "
                    + "with identity \"" + settings.identity().value() + "\".");
        }
        if (settings.requiresPass() && !settings.takesPasses()) {
            throw ApiException.invalidRequest(
                    "A queue in identity \"pass\" needs passKeys or passJwksUri to verify its passes with.");
        }
    }

    @DeleteMapping("/{productId}")
    @Operation(summary = "Delete a queue", description = """
            Closes the queue at once (enters answer 409 queue_closed) and drains it: the admission steps tell everyone \
            waiting EXPIRED, admitted users keep their entries until they book or the entries expire, and once nobody \
            is left (at least a minute after the deletion) the queue's keys are removed and it leaves the list. The \
            product's stock and bookings stay. Stored in the sale topic first, so a Redis that loses it drains the \
            restored line again. Deleting a queue that is draining changes nothing; creating it again (PUT) stops the \
            draining.""")
    @ApiResponse(responseCode = "204", description = "The queue is deleted and draining")
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka, so nothing changed")
    ResponseEntity<Void> delete(@PathVariable("productId") String productIdText) {
        long productId = ProductIds.parse(productIdText);
        QueueView view = this.store.find(productId)
            .orElseThrow(() -> ApiException.queueNotFound(productId));
        if (view.deletedAt() == null) {
            QueueSettings closed = view.settings().closed();
            long deletedAt = System.currentTimeMillis();
            DurableWrite.orUnavailable(() -> this.publisher.publishDeleted(productId, closed, deletedAt),
                    "The deletion could not be stored durably; nothing changed, try again.",
                    DurableWrite.OPERATOR_RETRY_AFTER);
            this.store.markDeleted(productId, deletedAt);
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping
    @Operation(summary = "List every queue", description = """
            Every configured queue, ordered by product id, with its settings and the size of its line: what the \
            operator view at /admin shows.""")
    @ApiResponse(responseCode = "200", description = "The queues")
    QueueList list() {
        List<QueueResponse> queues = new ArrayList<>();
        for (long productId : new TreeSet<>(this.store.productIds())) {
            // a queue deleted between the registry read and its own is simply not listed
            this.store.find(productId)
                .ifPresent(view -> queues.add(QueueResponse.of(productId, view, this.admission)));
        }
        return new QueueList(queues);
    }

    @GetMapping("/{productId}")
    @Operation(summary = "Read a queue's settings and the size of its line")
    @ApiResponse(responseCode = "200", description = """
            Settings with waiting, active and admittedTotal, auditBacklog, and admissionHold: why the admission step \
            holds (audit_backlog), or null""")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    QueueResponse get(@PathVariable("productId") String productIdText) {
        long productId = ProductIds.parse(productIdText);
        QueueView view = this.store.find(productId)
            .orElseThrow(() -> ApiException.queueNotFound(productId));
        return QueueResponse.of(productId, view, this.admission);
    }


    /**
     * @param maxPollsPerSecond null when polls are not budgeted
     * @param abandonAfterSeconds null when places are never released for not polling
     * @param pace admissions per second actually made, smoothed over about half a minute; null before there is
     *        history (polls then estimate with admitPerSecond)
     * @param opensAt null when the sale opened at once
     * @param soldOut the product's stock is set and 0: nobody is admitted until it returns
     * @param seed the seed the early entrants' order was drawn from; published at the opening, null before
     * @param challengeMaxNumber null when no proof of work is asked at join
     * @param inviteOnly null or false when anyone may enter
     * @param passKeys the public keys passes are verified with; null when the queue takes no passes or fetches them
     * @param passJwksUri where the shop publishes its pass keys; null when they are given or there are none
     * @param webhookUrl where the shop is told of each admission; null when it is not
     * @param webhookSecretSet whether the webhook's events are signed with a secret; the secret itself is never
     *        answered
     * @param held users the operator holds (they wait and are never admitted until released)
     * @param revokedTotal places the operator revoked
     * @param identity who the places belong to: visitor, trusted or pass
     * @param deletedAt when the queue was deleted: it is draining, and leaves the list once nobody is left in it;
     *        null while it exists
     * @param auditBacklog changes of the queue in its audit stream that Kafka has not acknowledged yet (the relay
     *        publishes them every half second while Kafka is up)
     * @param admissionHold why the admission step holds, admitting nobody while the line waits: "audit_backlog" while
     *        the audit stream holds queuegate.admission.audit-backlog-limit changes Kafka has not acknowledged (Kafka
     *        or the relay away; it admits again once the relay has caught up); null when it does not hold
     * @param returnHosts the hosts the waiting page and the edge check send people back to; null for none
     */
    record QueueResponse(long productId, int maxActive, int admitPerSecond, int entryTtlSeconds, boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, long waiting, long active,
            long admittedTotal, Double pace, boolean soldOut, String seed, Integer challengeMaxNumber,
            Boolean inviteOnly, List<Map<String, Object>> passKeys, String passJwksUri, String webhookUrl,
            boolean webhookSecretSet, long held, long revokedTotal, Identity identity, Long deletedAt,
            long auditBacklog, String admissionHold, List<String> returnHosts) {

        /** Why the admission step holds while the audit stream is at its bound ({@code admit_batch.lua}). */
        static final String AUDIT_BACKLOG = "audit_backlog";

        static QueueResponse of(long productId, QueueView view, AdmissionProperties admission) {
            QueueSettings settings = view.settings();
            return new QueueResponse(productId, settings.maxActive(), settings.admitPerSecond(),
                    settings.entryTtlSeconds(), settings.open(), settings.maxPollsPerSecond(),
                    settings.abandonAfterSeconds(), settings.opensAt(), view.waiting(), view.active(),
                    view.admittedTotal(), view.pace(), view.soldOut(), view.seed(), settings.challengeMaxNumber(),
                    settings.inviteOnly(), settings.passKeys(), settings.passJwksUri(), settings.webhookUrl(),
                    settings.webhookSecret() != null, view.held(),
                    view.revokedTotal(), settings.identity(), view.deletedAt(), view.auditBacklog(),
                    view.auditBacklog() >= admission.auditBacklogLimit() ? AUDIT_BACKLOG : null,
                    settings.returnHosts());
        }
    }

    /** @param queues every configured queue, ordered by product id */
    record QueueList(List<QueueResponse> queues) {
    }
}
