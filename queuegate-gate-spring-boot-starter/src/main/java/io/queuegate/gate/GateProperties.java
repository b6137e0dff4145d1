package io.queuegate.gate;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param maxQuantity the most units one booking may take
 * @param jwksUri where the queue publishes its admission keys (any Queuegate service's
 *        {@code /.well-known/jwks.json}): set, the gate also takes an admission (the JWS of an AVAILABLE status
 *        answer) where it takes a token, and verifies it with those keys alone: its {@code typ} must be
 *        {@code queuegate-admission+jwt} and its {@code iss} the queue's {@code queuegate.token.issuer}, set alike here
 * @param replicaAcks how many Redis replicas must hold a reservation before the gate lets it stand (Redis
 *        {@code WAIT} after the consume step): with 0, none; with more, a reservation they do not acknowledge within
 *        {@code replica-ack-timeout} is undone and answered 503, so that a failover to a replica that lacks it cannot
 *        give the token back for a second booking. For a gate whose bookings the admission worker cannot restore
 *        (a shop's own endpoint that keeps its orders elsewhere); booking-service's are on the bookings topic, which
 *        the restore after a failover reads. It holds the service's Redis connection for the round trip to the
 *        replica on every booking; one Redis or a Sentinel-managed one, not a Redis Cluster
 * @param replicaAckTimeout how long a booking waits for those replicas
 * @param auditBacklogLimit the most changes a product's audit stream ({@code audit:{p}}) may hold that Kafka has not
 *        acknowledged for a booking to reserve: at that many it is answered 503 with Retry-After and writes nothing,
 *        as the stream is trimmed only by the admission worker's relay and a change dropped unrelayed would let a
 *        restore after a Redis loss book again a booking that was undone. Above the admission worker's
 *        {@code queuegate.admission.audit-backlog-limit}, so that admitted users still book while the line holds;
 *        reached only while bookings keep failing to reach Kafka and are undone
 */
@Validated
@ConfigurationProperties("queuegate.gate")
public record GateProperties(@DefaultValue("4") @Min(1) @Max(1000) int maxQuantity, String jwksUri,
        @DefaultValue("0") @Min(0) @Max(16) int replicaAcks, @DefaultValue("100ms") Duration replicaAckTimeout,
        @DefaultValue("200000") @Min(1) long auditBacklogLimit) {
}
