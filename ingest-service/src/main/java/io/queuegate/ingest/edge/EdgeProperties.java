package io.queuegate.ingest.edge;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The edge check's settings ({@link EdgeCheck}).
 *
 * @param waitingRoomUrl the waiting page's origin as a visitor's browser reaches it, without a trailing slash: the
 *        edge sends people to {@code <waitingRoomUrl>/queues/<product>?return=<the URL they asked for>}
 * @param revokedRefresh how often the revoked admissions of each product checked lately are read again from Redis: a
 *        revoke is honoured within this plus a Redis round trip; kept under a second
 * @param admitOnTheSpot whether a visitor without an admission is admitted by the edge check itself while the line is
 *        empty and has room and rate to spare (in queues of identity "visitor" that ask no proof of work). Off: everyone
 *        passes through the waiting page
 * @param auditBacklogLimit the most changes a product's audit stream may hold that Kafka has not acknowledged before
 *        nobody is admitted on the spot: keep it the admission workers' {@code queuegate.admission.audit-backlog-limit},
 *        at which their steps hold too
 */
@Validated
@ConfigurationProperties("queuegate.edge")
public record EdgeProperties(
        @DefaultValue("http://127.0.0.1:8080") @NotNull
        @Pattern(regexp = "https?://[^\\s/?#]+(/[^\\s?#]*[^\\s/?#])?", message = "must be an http(s) URL without a trailing slash")
        String waitingRoomUrl,
        @DefaultValue("250ms") @NotNull Duration revokedRefresh,
        @DefaultValue("true") boolean admitOnTheSpot,
        @DefaultValue("100000") @Min(1) long auditBacklogLimit) {
}
