package io.queuegate.admission.admit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.PeriodicTask;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.ScriptTime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Runs one admission step every tick for each queue this worker runs ({@link QueueShare}): the workers walking one
 * registry share its queues, and each queue's steps run on the worker holding its lease. Each step is one atomic
 * script that checks the lease itself, and any number of steps may run at once: they share the queue's rate bucket
 * and never exceed its capacity.
 *
 * <p>A tick costs one read of the registry (a set of product ids, never a scan of keys), one heartbeat, and one
 * script call per queue this worker runs, each bounded by {@code max-batch}.
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

    private final QueueShare share;

    AdmissionTicker(QueueStore queues, Admission admission, AdmissionProperties properties, MeterRegistry metrics,
            QueueShare share) {
        super("admission-tick", properties.tickInterval());
        this.share = share;
        this.queues = queues;
        this.admission = admission;
        this.properties = properties;
        this.admissions = metrics.counter("queuegate.admissions");
        this.expirations = metrics.counter("queuegate.expirations");
        this.abandonments = metrics.counter("queuegate.abandonments");
        this.waitingGauge = new ProductGauge("queuegate.queue.waiting", "Tokens in the line", metrics);
        this.activeGauge = new ProductGauge("queuegate.queue.active", "Admitted tokens holding an entry", metrics);
    }

    /** One step over every queue this worker runs; logs one summary line when anything moved. */
    @Override
    protected void runOnce() {
        AdmissionResult total = new AdmissionResult(0, 0, 0, 0);
        int queueCount = 0;
        Map<Long, Long> waitingByProduct = new HashMap<>();
        Map<Long, Long> activeByProduct = new HashMap<>();
        List<Long> running = new ArrayList<>();
        try {
            this.share.beat();
            Set<Long> productIds = this.queues.productIds();
            for (long productId : productIds) {
                this.share.beatIfDue();
                if (!this.share.owns(productId)) {
                    continue;
                }
                Optional<AdmissionResult> step = this.admission.admitAsHolder(productId, ScriptTime.REDIS_TIME,
                        this.properties.maxBatch(), this.share.workerId(), this.share.leaseMillis());
                this.share.held(productId, step.isPresent());
                if (step.isEmpty()) {
                    // its previous worker still holds it: it gives it back at its next tick, or its lease lapses
                    continue;
                }
                running.add(productId);
                AdmissionResult result = step.get();
                waitingByProduct.put(productId, result.waiting());
                activeByProduct.put(productId, result.active());
                total = total.plus(result);
                queueCount++;
            }
            this.share.releaseAllBut(running);
        }
        catch (RuntimeException ex) {
            log.warn("admission tick failed after {} queues; the next tick tries again: {}", queueCount, ex.toString());
            return;
        }
        this.admissions.increment(total.admitted());
        this.expirations.increment(total.expired());
        this.abandonments.increment(total.abandoned());
        this.waitingGauge.set(waitingByProduct);
        this.activeGauge.set(activeByProduct);
        if (total.changedAnything()) {
            log.info("admission tick: queues={} admitted={} expired={} abandoned={} active={} waiting={}", queueCount,
                    total.admitted(), total.expired(), total.abandoned(), total.active(), total.waiting());
        }
    }

}
