package io.queuegate.web.ops;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How the topics a service creates are replicated. Unset, both follow from the number of brokers the cluster has at
 * start-up ({@link TopicReplication}): on three or more, 3 replicas and {@code min.insync.replicas} 2, so an
 * acknowledged write is on two brokers and one broker may be lost without refusing writes; on one broker, 1 and 1.
 * A topic that already exists keeps what it was created with.
 *
 * @param replicationFactor replicas of each partition of the topics this service creates; unset: 3 on a cluster of
 *        three brokers or more, otherwise as many as there are brokers
 * @param minInsyncReplicas the topics' {@code min.insync.replicas}, the replicas an acknowledged write (acks=all) must
 *        be on; below it the broker refuses the write and the client is answered 503. Unset: one fewer than the
 *        replicas, at least 1 and at most 2
 */
@Validated
@ConfigurationProperties("queuegate.kafka")
public record KafkaTopicProperties(@Min(1) @Max(Short.MAX_VALUE) Integer replicationFactor,
        @Min(1) Integer minInsyncReplicas) {
}
