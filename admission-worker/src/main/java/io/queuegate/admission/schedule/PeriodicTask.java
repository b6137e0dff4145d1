package io.queuegate.admission.schedule;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;

/**
 * A job the worker repeats with a fixed pause between runs, started and stopped with the application. A run
 * never overlaps the previous one, and a failing run must not stop the next: {@link #runOnce()} handles its
 * own errors.
 */
public abstract class PeriodicTask implements SmartLifecycle {

    private final TaskScheduler scheduler;

    private final Duration pause;

    private volatile ScheduledFuture<?> scheduled;

    protected PeriodicTask(TaskScheduler scheduler, Duration pause) {
        this.scheduler = scheduler;
        this.pause = pause;
    }

    protected abstract void runOnce();

    @Override
    public void start() {
        this.scheduled = this.scheduler.scheduleWithFixedDelay(this::runOnce, this.pause);
    }

    @Override
    public void stop() {
        ScheduledFuture<?> current = this.scheduled;
        if (current != null) {
            current.cancel(false);
        }
        this.scheduled = null;
    }

    @Override
    public boolean isRunning() {
        return this.scheduled != null;
    }
}
