package io.queuegate.admission;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import org.springframework.context.SmartLifecycle;

/**
 * A job the worker repeats with a fixed pause between runs, started and stopped with the application. Each
 * task runs on a virtual thread of its own, so a slow run of one (the audit relay waiting for Kafka) never
 * delays another (the admission tick); a shared scheduler thread did exactly that. A run never overlaps the
 * previous one, and a failing run must not stop the next: {@link #runOnce()} handles its own errors. A task may
 * {@link #wake()} itself early when something it waits for has happened.
 */
public abstract class PeriodicTask implements SmartLifecycle {

    private final String name;

    private final Duration pause;

    private volatile Thread loop;

    /** Set by {@link #wake()}: the pause after the current run, or the one under way, ends at once. */
    private volatile boolean woken;

    protected PeriodicTask(String name, Duration pause) {
        this.name = name;
        this.pause = pause;
    }

    protected abstract void runOnce();

    @Override
    public void start() {
        this.loop = Thread.ofVirtual().name(this.name).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                // cleared before the run: a wake that arrives during it is for something the run may have missed
                this.woken = false;
                runOnce();
                long pauseNanos = nextPause().toNanos();
                long until = System.nanoTime() + pauseNanos;
                for (long left = pauseNanos; left > 0 && !this.woken; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(this, left);
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
            }
        });
    }

    /** The pause after the run that just ended: the task's pause unless the task knows better. */
    protected Duration nextPause() {
        return this.pause;
    }

    /** Runs the task now rather than at the end of its pause (or right after the run under way). */
    protected void wake() {
        this.woken = true;
        Thread current = this.loop;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    @Override
    public void stop() {
        Thread current = this.loop;
        this.loop = null;
        if (current != null) {
            current.interrupt();
            try {
                current.join(this.pause.plusSeconds(10));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return this.loop != null;
    }
}
