package io.queuegate.admission.admit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.PeriodicTask;
import io.queuegate.admission.line.LinesGrew;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.ScriptTime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Runs one admission step every tick for each queue this worker runs ({@link QueueShare}): the workers walking one
 * registry share its queues, and each queue's steps run on the worker holding its lease. Each step is one atomic
 * script that checks the lease itself, and any number of steps may run at once: they share the queue's rate bucket
 * and never exceed its capacity.
 *
 * <p>A tick costs one read of the registry (a set of product ids, never a scan of keys), one heartbeat, and one
 * script call per queue this worker runs, each bounded by {@code max-batch}. Between ticks, a queue whose line the
 * writer just grew is stepped at once ({@link LinesGrew}): one script call for that queue alone.
 */
@Component
class AdmissionTicker extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(AdmissionTicker.class);

    private final QueueStore queues;

    private final Admission admission;

    private final AdmissionProperties properties;

    private final Counter admissions;

    private final Counter expirations;

    private final Counter abandonments;

    private final ProductGauge waitingGauge;

    private final ProductGauge activeGauge;

    private final ProductGauge heldGauge;

    private final Counter heldSteps;

    /** Queues whose last step held for the audit backlog, so that the hold and its end are logged once each. */
    private final Set<Long> heldForAudit = ConcurrentHashMap.newKeySet();

    private final QueueShare share;

    /** Queues whose line grew since the last run (see {@link #linesGrew}). */
    private final Set<Long> grown = ConcurrentHashMap.newKeySet();

    /** When the last step over every queue ended; the next is due a tick interval later. */
    private long fullTickEnded;

    AdmissionTicker(QueueStore queues, Admission admission, AdmissionProperties properties, MeterRegistry metrics,
            QueueShare share) {
        super("admission-tick", properties.tickInterval());
        // as if a full tick had ended one interval ago: the first run is one
        this.fullTickEnded = System.nanoTime() - properties.tickInterval().toNanos();
        this.share = share;
        this.queues = queues;
        this.admission = admission;
        this.properties = properties;
        this.admissions = metrics.counter("queuegate.admissions");
        this.expirations = metrics.counter("queuegate.expirations");
        this.abandonments = metrics.counter("queuegate.abandonments");
        this.waitingGauge = new ProductGauge("queuegate.queue.waiting", "Tokens in the line", metrics);
        this.activeGauge = new ProductGauge("queuegate.queue.active", "Admitted tokens holding an entry", metrics);
        this.heldGauge = new ProductGauge("queuegate.queue.admission.held",
                "1 while the queue's admission step holds because its audit stream is at "
                        + "queuegate.admission.audit-backlog-limit (Kafka or the relay away); 0 otherwise",
                metrics);
        this.heldSteps = Counter.builder("queuegate.admission.held")
            .description("Admission steps that held, admitting nobody, because the audit backlog was at its bound")
            .register(metrics);
    }

    /**
     * The writer put new users into these lines: they are stepped at once, so that whoever finds free capacity is
     * admitted now rather than at the next tick. Only these queues, and only those this worker runs; the full tick
     * still comes at its interval.
     */
    @EventListener
    void linesGrew(LinesGrew event) {
        this.grown.addAll(event.productIds());
        wake();
    }

    @Override
    protected void runOnce() {
        if (untilFullTick() <= 0) {
            // every queue is stepped now, including those that grew meanwhile
            this.grown.clear();
            tickAll();
            this.fullTickEnded = System.nanoTime();
        }
        else {
            stepGrown();
        }
    }

    /** After a step of grown queues, only what is left of the interval: wake-ups never put the full tick off. */
    @Override
    protected Duration nextPause() {
        return Duration.ofNanos(Math.max(0, untilFullTick()));
    }

    private long untilFullTick() {
        return this.properties.tickInterval().toNanos() - (System.nanoTime() - this.fullTickEnded);
    }

    /** One step over every queue this worker runs; logs one summary line when anything moved. */
    private void tickAll() {
        AdmissionResult total = new AdmissionResult(0, 0, 0, 0);
        int queueCount = 0;
        Map<Long, Long> waitingByProduct = new HashMap<>();
        Map<Long, Long> activeByProduct = new HashMap<>();
        Map<Long, Long> heldByProduct = new HashMap<>();
        List<Long> running = new ArrayList<>();
        try {
            this.share.beat();
            Set<Long> productIds = this.queues.productIds();
            for (long productId : productIds) {
                Optional<AdmissionResult> step = step(productId);
                if (step.isEmpty()) {
                    continue;
                }
                running.add(productId);
                AdmissionResult result = step.get();
                waitingByProduct.put(productId, result.waiting());
                activeByProduct.put(productId, result.active());
                heldByProduct.put(productId, result.auditBacklogFull() ? 1L : 0L);
                total = total.plus(result);
                queueCount++;
            }
            this.share.releaseAllBut(running);
        }
        catch (RuntimeException ex) {
            log.warn("admission tick failed after {} queues; the next tick tries again: {}", queueCount, ex.toString());
            return;
        }
        count(total);
        this.waitingGauge.set(waitingByProduct);
        this.activeGauge.set(activeByProduct);
        this.heldGauge.set(heldByProduct);
        if (total.changedAnything()) {
            log.info("admission tick: queues={} admitted={} expired={} abandoned={} active={} waiting={}", queueCount,
                    total.admitted(), total.expired(), total.abandoned(), total.active(), total.waiting());
        }
    }

    /** One step for each queue whose line grew since the last run; the gauges wait for the next full tick. */
    private void stepGrown() {
        AdmissionResult total = new AdmissionResult(0, 0, 0, 0);
        try {
            for (Long productId : List.copyOf(this.grown)) {
                this.grown.remove(productId);
                Optional<AdmissionResult> step = step(productId);
                if (step.isPresent()) {
                    total = total.plus(step.get());
                }
            }
        }
        catch (RuntimeException ex) {
            log.warn("admission step after the line grew failed; the next tick tries again: {}", ex.toString());
            return;
        }
        count(total);
    }

    /**
     * One admission step of a queue this worker runs, empty when another worker runs it or still holds its lease
     * (its previous worker gives it back at its next tick, or its lease lapses).
     */
    private Optional<AdmissionResult> step(long productId) {
        this.share.beatIfDue();
        if (!this.share.owns(productId)) {
            return Optional.empty();
        }
        Optional<AdmissionResult> step = this.admission.admitAsHolder(productId, ScriptTime.REDIS_TIME,
                this.properties.maxBatch(), this.share.workerId(), this.share.leaseMillis(),
                this.properties.auditBacklogLimit());
        this.share.held(productId, step.isPresent());
        step.ifPresent(result -> heldForAudit(productId, result.auditBacklogFull()));
        if (step.isPresent() && step.get().drained()) {
            // a deleted queue nobody is left in: its keys go, and no worker steps it again
            this.queues.remove(productId);
            log.info("removed the drained queue of deleted product {}", productId);
        }
        return step;
    }

    /** Counts a step that held; logs once when a queue starts holding for the audit backlog and once when it ends. */
    private void heldForAudit(long productId, boolean held) {
        if (held) {
            this.heldSteps.increment();
            if (this.heldForAudit.add(productId)) {
                log.warn("admissions of product {} held: its audit stream holds {} or more changes Kafka has not "
                        + "acknowledged (queuegate.admission.audit-backlog-limit); the line waits until the relay "
                        + "catches up", productId, this.properties.auditBacklogLimit());
            }
        }
        else if (this.heldForAudit.remove(productId)) {
            log.info("admissions of product {} resumed: the audit relay caught up", productId);
        }
    }

    private void count(AdmissionResult total) {
        this.admissions.increment(total.admitted());
        this.expirations.increment(total.expired());
        this.abandonments.increment(total.abandoned());
    }

}
