package io.queuegate.core.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;

/**
 * When a warm-up has done its job: not after a fixed time, which is only as good as the CPU the warm-up got (the
 * services start side by side on two cores), but once it has done some work and the JIT has caught up with it. On two
 * cores the JIT went on compiling for a minute of load (a second of compiler time per second at first), and what it
 * had not compiled before the sale it compiled during the sale's first seconds, on the cores the sale needed.
 *
 * @param cap the longest the warm-up may take
 * @param work the least work it must have done ({@code done}'s count)
 * @param quiet the JIT caught up when it compiled for less than this a second over the last {@value #SECONDS}
 *        seconds (the compilation time the JVM reports is elapsed time, so one compilation that other processes
 *        slowed down fills a second alone; one second told little)
 */
public record UntilCompiled(Duration cap, long work, Duration quiet) {

    private static final int SECONDS = 3;

    /**
     * Waits, a second at a time, until {@code done} counts at least {@link #work()} and the last seconds were quiet,
     * or the cap is reached.
     *
     * @return each second's work done so far and the JIT's milliseconds in it, for the log
     */
    public String await(LongSupplier done) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long deadline = System.nanoTime() + this.cap.toNanos();
        long compiled = jit.getTotalCompilationTime();
        long[] lastSeconds = new long[SECONDS];
        StringBuilder trace = new StringBuilder();
        for (int second = 0; System.nanoTime() < deadline; second++) {
            Thread.sleep(1_000);
            long compiling = jit.getTotalCompilationTime() - compiled;
            compiled += compiling;
            lastSeconds[second % SECONDS] = compiling;
            long doneSoFar = done.getAsLong();
            trace.append(trace.isEmpty() ? "" : " ").append(doneSoFar).append('/').append(compiling).append("ms");
            if (doneSoFar >= this.work && second >= SECONDS - 1
                    && LongStream.of(lastSeconds).sum() < SECONDS * this.quiet.toMillis()) {
                break;
            }
        }
        return trace.toString();
    }
}
