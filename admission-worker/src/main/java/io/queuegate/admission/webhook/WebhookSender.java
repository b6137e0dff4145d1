package io.queuegate.admission.webhook;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

import io.queuegate.core.event.UserAdmitted;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.web.egress.EgressClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Tells a queue's webhook that a user's turn came: one signed POST of an {@code entry.available} event per admission
 * ({@link UserAdmitted}). The body is synchronous, so the record's offset is committed only after the receiver
 * answered 2xx; any other answer (a redirect is not followed), or none within the timeout (from connecting to the
 * last byte of the answer), throws, and the error handler ({@link WebhookDeadLetters}) posts it again, then sets it
 * aside on the dead-letter topic. Delivery is therefore at least once: a receiver drops repeats by the event's
 * {@code id}. A URL or an address that {@code queuegate.egress.*} refuses ({@link EgressClient}) is set aside at
 * once.
 *
 * <p>The URL and the secret are read from the queue's settings when the event is sent, not when the user was
 * admitted, so an operator who corrects a wrong URL also fixes the retries under way. An event whose queue has no
 * webhook any more, or whose entry expired before it could be told, is dropped: telling a user it is their turn
 * once the turn is over helps nobody.
 */
@Component
record WebhookSender(QueueStore queues, JsonMapper json, EgressClient http) {

    static final String LISTENER_ID = "webhook-sender";

    /** The event's type in the body. */
    static final String ENTRY_AVAILABLE = "entry.available";

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);

    @KafkaListener(id = LISTENER_ID, groupId = "${queuegate.admission.webhook.group:queuegate-webhooks}",
            topics = "${queuegate.admission.webhook.topic:queuegate.admissions}",
            concurrency = "${queuegate.admission.webhook.concurrency:4}",
            containerFactory = WebhookConfiguration.LISTENER_FACTORY)
    void send(ConsumerRecord<String, byte[]> record) throws IOException {
        UserAdmitted admitted = this.json.readValue(record.value(), UserAdmitted.class);
        Optional<QueueSettings> settings = this.queues.findSettings(admitted.productId())
            .filter(QueueSettings::hasWebhook);
        if (settings.isEmpty()) {
            log.debug("product {} has no webhook any more; event {} dropped", admitted.productId(),
                    admitted.eventId());
            return;
        }
        long now = System.currentTimeMillis();
        if (admitted.expiresAt() <= now) {
            log.info("the entry of event {} of product {} expired before its webhook took it; dropped",
                    admitted.eventId(), admitted.productId());
            return;
        }
        byte[] body = this.json.writeValueAsBytes(EntryAvailable.of(admitted));
        int status = this.http.post(settings.get().webhookUrl(), body, Map.of(
                "User-Agent", "Queuegate-Webhook",
                "Queuegate-Event-Id", admitted.eventId(),
                WebhookSigner.HEADER, WebhookSigner.sign(settings.get().webhookSecret(), now / 1000, body)));
        if (status < 200 || status > 299) {
            throw new ReceiverRefused(admitted, status);
        }
    }

    /**
     * The body posted: what a shop needs to tell the user, and the id to drop repeats by.
     *
     * @param id the same for every delivery of one admission
     * @param type {@value #ENTRY_AVAILABLE}
     * @param expiresAt epoch milliseconds the user may book until
     */
    record EntryAvailable(String id, String type, long productId, String userId, String token, long admittedAt,
            long expiresAt) {

        static EntryAvailable of(UserAdmitted admitted) {
            return new EntryAvailable(admitted.eventId(), ENTRY_AVAILABLE, admitted.productId(), admitted.userId(),
                    admitted.token(), admitted.admittedAt(), admitted.expiresAt());
        }
    }

    /** A receiver answered, but not 2xx: the event is posted again. */
    static final class ReceiverRefused extends RuntimeException {

        ReceiverRefused(UserAdmitted admitted, int status) {
            super("the webhook of product %d answered %d to event %s".formatted(admitted.productId(), status,
                    admitted.eventId()), null, false, false);
        }
    }
}
