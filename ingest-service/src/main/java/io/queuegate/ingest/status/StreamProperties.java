package io.queuegate.ingest.status;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * A place's event stream ({@link EntryStreams}).
 *
 * @param maxPerProduct streams one product may have open at this instance; a stream past it is told to poll instead
 *        (one event {@code poll}, with {@code pollAfterMs}) and closed
 * @param heartbeat how long a stream may stay quiet before it sends a comment, so that proxies keep it open (less
 *        up to a half of it at random, so that streams opened together do not all beat at once)
 * @param step how often the streams of a product are read, all those due in one Redis call (in calls of at most
 *        {@code queuegate.ingest.status.max-batch} users); a place near the front is read every step, so its
 *        admission is told within about a step even when the admission step's news of it is lost
 */
@Validated
@ConfigurationProperties("queuegate.ingest.streams")
record StreamProperties(
        @DefaultValue("20000") @Min(0) int maxPerProduct,
        @DefaultValue("15s") @NotNull Duration heartbeat,
        @DefaultValue("100ms") @NotNull Duration step) {
}
