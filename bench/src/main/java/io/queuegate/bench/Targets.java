package io.queuegate.bench;

/**
 * What the figures must reach on the benchmark's own machine, each against a yardstick of the same run or as an
 * absolute bound. The report's target column and the chart's red marks come from here.
 */
final class Targets {

    /** Durable enters per second ÷ the plain no-op app's POSTs per second. */
    static final Target ENTERS_TO_PLAIN_NOOP = Target.atLeast(0.6);

    /** Durable enters per second ÷ the seed design's enters (one synchronous ZADD each) per second. */
    static final Target ENTERS_TO_SEED = Target.atLeast(1.5);

    /** Status polls per second ÷ the plain no-op app's GETs per second. */
    static final Target POLLS_TO_PLAIN_NOOP = Target.atLeast(0.6);

    /** The ingest JVM's CPU per enter, and per poll, ÷ the plain no-op app's CPU per request of the same method. */
    static final Target INGEST_CPU_TO_PLAIN_NOOP = Target.atMost(2);

    /** Burst events into the line per second ÷ {@code redis-benchmark}'s pipelined ZADDs per second. */
    static final Target DRAIN_TO_ZADD = Target.atLeast(1.5);

    /** Redis bytes per waiting user, over all of the product's keys. */
    static final Target BYTES_PER_WAITING_USER = Target.atMost(130, "B");

    /** One admission tick promoting {@link #ADMISSION_BATCH} tokens, in milliseconds. */
    static final Target ADMISSION_TICK_MS = Target.atMost(20, "ms");

    /** The batch {@link #ADMISSION_TICK_MS} is set for; a run with another batch is not judged. */
    static final int ADMISSION_BATCH = 10_000;

    /** Event streams one ingest holds open at once, each told its first event. */
    static final Target STREAMS_HELD = Target.atLeast(50_000);

    /** From an admission to the AVAILABLE event at its subscriber, p99, with {@link #STREAMS_HELD} streams open. */
    static final Target ADMISSION_TO_EVENT_P99_MS = Target.atMost(250, "ms");

    private Targets() {
    }
}
