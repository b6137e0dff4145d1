package io.queuegate.admission.admit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * One gauge per product, tagged {@code product}, set on every tick. Each product's gauge is registered once and
 * then only its value changes: re-registering rows every tick (a {@code MultiGauge} with overwrite) removes each
 * series for a moment, and a scrape in that moment found no series at all.
 */
public final class ProductGauge {

    private final String name;

    private final String description;

    private final MeterRegistry registry;

    private final Map<Long, Series> products = new ConcurrentHashMap<>();

    public ProductGauge(String name, String description, MeterRegistry registry) {
        this.name = name;
        this.description = description;
        this.registry = registry;
    }

    /** Sets this tick's values; products missing from it no longer have a queue, and their series go. */
    public void set(Map<Long, Long> values) {
        values.forEach((productId, value) -> this.products.computeIfAbsent(productId, this::register)
            .value()
            .set(value));
        this.products.entrySet().removeIf(product -> {
            boolean gone = !values.containsKey(product.getKey());
            if (gone) {
                this.registry.remove(product.getValue().gauge());
            }
            return gone;
        });
    }

    private Series register(long productId) {
        AtomicLong value = new AtomicLong();
        Gauge gauge = Gauge.builder(this.name, value, AtomicLong::doubleValue)
            .description(this.description)
            .tag("product", Long.toString(productId))
            .strongReference(true)
            .register(this.registry);
        return new Series(value, gauge);
    }

    private record Series(AtomicLong value, Gauge gauge) {
    }
}
