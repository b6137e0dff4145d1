package io.queuegate.admission;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.queuegate.core.event.Topics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param tickInterval pause between two admission steps over every queue
 * @param maxBatch the most entries one step may expire, and the most it may admit, per queue
 * @param topic the topic of enter events the line is written from
 * @param partitions partitions of that topic when the worker creates it
 * @param appendChunk about the most enter events verified, then written to Redis, as one step (a record counts as
 *     one enter per 128 bytes); the next step's verification overlaps the previous step's write
 * @param auditTopic the topic the audit trail is relayed to
 * @param auditInterval pause between two relay rounds over every queue's audit stream
 * @param auditBatch the most audit entries relayed per product and round
 * @param auditBacklogLimit the most changes a product's audit stream ({@code audit:{p}}) may hold that Kafka has not
 *     acknowledged yet: at that many, its admission step holds (nobody admitted, expired or taken out; the line waits)
 *     until the relay has caught up, since the stream is trimmed only by the relay and a change dropped unrelayed
 *     would lose a webhook, or let a restore after a Redis loss book again a booking that was undone. About 100 bytes
 *     of Redis per change, plus its user ids; at the default rate of relaying (a thousand per product every half
 *     second), 100,000 are relayed in under a minute once Kafka is back
 * @param deadLetterTopic where enter records the writer will not apply (unreadable, or with forged tokens) are set
 *     aside, untouched, with the reason in their headers
 * @param saleTopic the compacted topic each queue's settings are published to before they are acknowledged; read,
 *     with the audit and bookings topics, when Redis lost the sale
 * @param bookingsTopic the topic booking-service publishes bookings to; read when Redis lost the sale, so that
 *     consumed tokens stay consumed and the stock comes back as set minus what was booked
 * @param leavesTopic the topic ingest-service publishes leaves to; read when Redis lost the sale, so that nobody
 *     who left is placed again
 * @param retention how long the entries and audit topics keep their records when the worker creates them: a Redis
 *     that loses the sale gets back only what is still there, so keep it at least as long as a sale
 * @param lossCheckInterval pause between two checks that Redis still holds the lines the writer applied, so that a
 *     Redis that lost them is rebuilt even while no enter arrives
 * @param leaseTime how long a worker's lease of a queue, and its membership among the workers sharing the queues,
 *     last without being renewed (every tick renews them): how long the queues of a worker that died wait before the
 *     others take them over. Keep it several tick intervals long
 */
@Validated
@ConfigurationProperties("queuegate.admission")
public record AdmissionProperties(
        @DefaultValue("200ms") @NotNull Duration tickInterval,
        @DefaultValue("10000") @Min(1) @Max(100_000) int maxBatch,
        @DefaultValue("queuegate.entries") @Pattern(regexp = Topics.LEGAL_NAME) String topic,
        @DefaultValue("12") @Min(1) int partitions,
        @DefaultValue("2000") @Min(1) @Max(50_000) int appendChunk,
        @DefaultValue("queuegate.audit") @Pattern(regexp = Topics.LEGAL_NAME) String auditTopic,
        @DefaultValue("500ms") @NotNull Duration auditInterval,
        @DefaultValue("1000") @Min(1) @Max(100_000) int auditBatch,
        @DefaultValue("100000") @Min(1) long auditBacklogLimit,
        @DefaultValue("queuegate.entries.DLT") @Pattern(regexp = Topics.LEGAL_NAME) String deadLetterTopic,
        @DefaultValue("queuegate.sale") @Pattern(regexp = Topics.LEGAL_NAME) String saleTopic,
        @DefaultValue("queuegate.bookings") @Pattern(regexp = Topics.LEGAL_NAME) String bookingsTopic,
        @DefaultValue("queuegate.leaves") @Pattern(regexp = Topics.LEGAL_NAME) String leavesTopic,
        @DefaultValue("7d") @NotNull Duration retention,
        @DefaultValue("1s") @NotNull Duration lossCheckInterval,
        @DefaultValue("2s") @NotNull Duration leaseTime) {
}
