package io.queuegate.core.queue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Times every script call as {@code queuegate.script{script=<name>}}, so a slow script shows on the dashboard. */
public final class ScriptTimer {

    private final MeterRegistry registry;

    /** One timer per script, resolved once: every status poll passes here. */
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public ScriptTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    public <T> T time(String script, Supplier<T> call) {
        return this.timers.computeIfAbsent(script, this::register).record(call);
    }

    /** Times a call that answers later, from the call until its answer. */
    public <T> CompletableFuture<T> timeAsync(String script, Supplier<CompletableFuture<T>> call) {
        Timer timer = this.timers.computeIfAbsent(script, this::register);
        long start = System.nanoTime();
        return call.get().whenComplete((result, failure) -> timer.record(System.nanoTime() - start,
                TimeUnit.NANOSECONDS));
    }

    private Timer register(String script) {
        return Timer.builder("queuegate.script")
            .description("Latency of one Lua script call, including the Redis round trip")
            .tag("script", script)
            .publishPercentileHistogram()
            .register(this.registry);
    }
}
