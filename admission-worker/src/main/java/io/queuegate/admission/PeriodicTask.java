package io.queuegate.admission;

import java.time.Duration;

import org.springframework.context.SmartLifecycle;

/**
 * A job the worker repeats with a fixed pause between runs, started and stopped with the application. Each
 * task runs on a virtual thread of its own, so a slow run of one (the audit relay waiting for Kafka) never
 * delays another (the admission tick); a shared scheduler thread did exactly that. A run never overlaps the
 * previous one, and a failing run must not stop the next: {@link #runOnce()} handles its own errors.
 */
public abstract class PeriodicTask implements SmartLifecycle {

    private final String name;

    private final Duration pause;

    private volatile Thread loop;

    protected PeriodicTask(String name, Duration pause) {
        this.name = name;
        this.pause = pause;
    }

    protected abstract void runOnce();

    @Override
    public void start() {
        this.loop = Thread.ofVirtual().name(this.name).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                runOnce();
                try {
                    Thread.sleep(this.pause);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        });
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
