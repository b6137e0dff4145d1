package io.queuegate.admission.admit;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProductGaugeTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final ProductGauge gauge = new ProductGauge("queuegate.queue.waiting", "Tokens in the line",
            this.registry);

    @Test
    void eachProductHasOneSeriesWithThisTicksValue() {
        this.gauge.set(Map.of(1L, 10L, 2L, 20L));
        this.gauge.set(Map.of(1L, 11L, 2L, 21L));

        assertThat(this.registry.find("queuegate.queue.waiting").gauges()).hasSize(2);
        assertThat(value(1)).isEqualTo(11);
        assertThat(value(2)).isEqualTo(21);
    }

    @Test
    void aProductWithoutQueueLosesItsSeries() {
        this.gauge.set(Map.of(1L, 10L, 2L, 20L));
        this.gauge.set(Map.of(2L, 22L));

        assertThat(series(1)).isNull();
        assertThat(value(2)).isEqualTo(22);

        this.gauge.set(Map.of(1L, 5L));
        assertThat(value(1)).isEqualTo(5);
        assertThat(series(2)).isNull();
    }

    @Test
    void aScrapeDuringTicksAlwaysFindsTheSeries() throws InterruptedException {
        this.gauge.set(Map.of(1L, 0L));
        AtomicBoolean ticking = new AtomicBoolean(true);
        Thread ticker = Thread.ofPlatform().start(() -> {
            for (long tick = 1; tick <= 200_000; tick++) {
                this.gauge.set(Map.of(1L, tick));
            }
            ticking.set(false);
        });
        AtomicLong scrapes = new AtomicLong();
        AtomicLong missing = new AtomicLong();
        while (ticking.get()) {
            scrapes.incrementAndGet();
            if (series(1) == null) {
                missing.incrementAndGet();
            }
        }
        ticker.join();

        assertThat(scrapes.get()).isPositive();
        assertThat(missing.get()).isZero();
        assertThat(value(1)).isEqualTo(200_000);
    }

    private Gauge series(long productId) {
        return this.registry.find("queuegate.queue.waiting").tag("product", Long.toString(productId)).gauge();
    }

    private double value(long productId) {
        return series(productId).value();
    }
}
