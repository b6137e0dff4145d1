package io.queuegate.ingest.warmup;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.testing.WarmUpTraces;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A starting service drives enters and polls through a scratch copy of itself before it says it is ready, and
 * leaves nothing of it behind: no key in Redis, no topic, no record in the entries topic, nothing in its own metrics.
 */
class WarmUpTests extends IngestHttpTestSupport {

    @Test
    void aStartingServiceRunsTheBurstsCodeThroughAScratchCopyAndLeavesNoTrace() {
        long recordsBefore = WarmUpTraces.records(this.brokers, TOPIC);

        // limits per client as tight as they go: the warm-up's clients come through a proxy of loopback, each enter
        // from an address of its own, so the limiter runs and refuses none of them
        try (ConfigurableApplicationContext service = startAnother(Duration.ofSeconds(2),
                "--spring.kafka.bootstrap-servers=" + this.brokers, "--queuegate.ingest.per-client.enabled=true",
                "--queuegate.ingest.per-client.enter-burst=1", "--queuegate.ingest.per-client.enters-per-minute=1")) {
            WarmUp.Outcome outcome = service.getBean(WarmUp.class).outcome();
            assertThat(outcome).isNotNull();
            // one address would have had a single enter accepted; how many more depends on the machine's load, which
            // a test does not measure (the warm-up's effect is measured by bench/cold-start.sh)
            assertThat(outcome.accepted()).as("enters the scratch copy accepted").isGreaterThanOrEqualTo(20);
            assertThat(outcome.answered()).as("polls it answered").isPositive();

            assertThat(WarmUpTraces.keys(this.redis)).as("Redis keys of the scratch copy left behind").isEmpty();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(WarmUpTraces.topics(this.brokers))
                .as("topics of the scratch copy left behind").isEmpty());
            assertThat(WarmUpTraces.records(this.brokers, TOPIC)).as("records in the entries topic")
                .isEqualTo(recordsBefore);
            MeterRegistry metrics = service.getBean(MeterRegistry.class);
            assertThat(metrics.find("queuegate.enters").counters())
                .allSatisfy((counter) -> assertThat(counter.count()).isZero());
            assertThat(get(portOf(service), "/readyz").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aServiceWhoseRedisIsNotThereYetStartsWithoutTheWarmUp() {
        try (ConfigurableApplicationContext service = startAnother(Duration.ofSeconds(2),
                "--spring.kafka.bootstrap-servers=" + this.brokers, "--spring.data.redis.port=1")) {
            assertThat(service.isRunning()).isTrue();
            assertThat(service.getBean(WarmUp.class).outcome()).isNull();
            assertThat(get(portOf(service), "/livez").statusCode()).isEqualTo(200);
        }
    }
}
