package io.queuegate.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One progress line on stderr: the share of the planned time done, the phase, and the time left. On a terminal the
 * line redraws itself; elsewhere (a log file, CI) each phase prints one line.
 */
final class Progress implements AutoCloseable {

    private static final int WIDTH = 30;

    private final PrintStream out = System.err;

    private final boolean terminal = System.console() != null && System.console().isTerminal()
            && System.getenv("BENCH_PLAIN") == null;

    private final long startNanos = System.nanoTime();

    private final double plannedSeconds;

    private final Thread painter;

    private volatile double doneSeconds;

    private volatile double phaseSeconds;

    private volatile long phaseStart = System.nanoTime();

    private volatile String phase = "starting";

    private volatile boolean closed;

    Progress(double plannedSeconds) {
        this.plannedSeconds = Math.max(1, plannedSeconds);
        this.painter = Thread.ofPlatform().daemon().name("progress").start(this::paintLoop);
    }

    /** Starts a phase expected to take {@code seconds}; the previous phase counts as done. */
    synchronized void phase(String name, double seconds) {
        this.doneSeconds += this.phaseSeconds;
        this.phaseSeconds = seconds;
        this.phaseStart = System.nanoTime();
        this.phase = name;
        if (!this.terminal) {
            this.out.printf(Locale.ROOT, "[bench %3.0f%%] %s%n", percent(), name);
        }
    }

    /** A line above the bar, for results worth seeing as they come. */
    synchronized void note(String message) {
        if (this.terminal) {
            this.out.print("\r\033[2K");
        }
        this.out.println("  " + message);
        paint();
    }

    private double percent() {
        double inPhase = Math.min(this.phaseSeconds, (System.nanoTime() - this.phaseStart) / 1e9);
        return Math.min(100, 100 * (this.doneSeconds + inPhase) / this.plannedSeconds);
    }

    private void paintLoop() {
        while (!this.closed) {
            synchronized (this) {
                paint();
            }
            try {
                Thread.sleep(250);
            }
            catch (InterruptedException ex) {
                return;
            }
        }
    }

    private void paint() {
        if (!this.terminal || this.closed) {
            return;
        }
        double pct = percent();
        int filled = (int) Math.round(pct / 100 * WIDTH);
        long elapsed = (System.nanoTime() - this.startNanos) / 1_000_000_000L;
        long left = Math.max(0, Math.round(this.plannedSeconds * (1 - pct / 100)));
        String line = String.format(Locale.ROOT, "[%s%s] %3.0f%%  %d:%02d elapsed, ~%d:%02d left  %s",
                "#".repeat(filled), ".".repeat(WIDTH - filled), pct, elapsed / 60, elapsed % 60, left / 60, left % 60,
                this.phase);
        this.out.print("\r\033[2K" + line);
        this.out.flush();
    }

    @Override
    public synchronized void close() {
        this.closed = true;
        this.painter.interrupt();
        if (this.terminal) {
            this.out.print("\r\033[2K");
        }
        long elapsed = (System.nanoTime() - this.startNanos) / 1_000_000_000L;
        this.out.printf("[bench] done in %d:%02d%n", elapsed / 60, elapsed % 60);
    }
}
