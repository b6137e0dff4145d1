package io.queuegate.core.queue;

/**
 * The queue's one clock is Redis {@code TIME}: scripts read it when given {@link #REDIS_TIME}, so workers and
 * services on hosts with skewed clocks never disagree about what has expired. Tests pass a fixed time instead.
 */
public final class ScriptTime {

    public static final long REDIS_TIME = 0;

    private ScriptTime() {
    }
}
