package io.queuegate.core.queue;

import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Times every script call as {@code queuegate.script{script=<name>}}, so a slow script shows on the dashboard. */
public final class ScriptTimer {

    private final MeterRegistry registry;

    public ScriptTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    public <T> T time(String script, Supplier<T> call) {
        Timer timer = Timer.builder("queuegate.script")
            .description("Latency of one Lua script call, including the Redis round trip")
            .tag("script", script)
            .publishPercentileHistogram()
            .register(this.registry);
        return timer.record(call);
    }
}
