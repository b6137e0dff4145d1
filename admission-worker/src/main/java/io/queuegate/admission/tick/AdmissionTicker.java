package io.queuegate.admission.tick;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.admission.config.AdmissionProperties;
import io.queuegate.admission.schedule.PeriodicTask;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.AdmissionResult;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.ScriptTime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Runs one admission step per configured queue every tick. Each step is one atomic script, so any number of
 * workers may tick at once; they share the queue's rate bucket and never exceed its capacity.
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

    AdmissionTicker(QueueStore queues, Admission admission, AdmissionProperties properties,
            MeterRegistry metrics) {
        super("admission-tick", properties.tickInterval());
        this.queues = queues;
        this.admission = admission;
        this.properties = properties;
        this.admissions = metrics.counter("queuegate.admissions");
        this.expirations = metrics.counter("queuegate.expirations");
        this.abandonments = metrics.counter("queuegate.abandonments");
        this.waitingGauge = new ProductGauge("queuegate.queue.waiting", "Tokens in the line", metrics);
        this.activeGauge = new ProductGauge("queuegate.queue.active", "Admitted tokens holding an entry", metrics);
    }

    /** One step over every queue; logs one summary line when anything moved. */
    @Override
    protected void runOnce() {
        long admitted = 0;
        long expired = 0;
        long abandoned = 0;
        long active = 0;
        long waiting = 0;
        int queueCount = 0;
        Map<Long, Long> waitingByProduct = new HashMap<>();
        Map<Long, Long> activeByProduct = new HashMap<>();
        try {
            for (long productId : this.queues.productIds()) {
                AdmissionResult result = this.admission.admit(productId, ScriptTime.REDIS_TIME,
                        this.properties.maxBatch());
                waitingByProduct.put(productId, result.waiting());
                activeByProduct.put(productId, result.active());
                admitted += result.admitted();
                expired += result.expired();
                abandoned += result.abandoned();
                active += result.active();
                waiting += result.waiting();
                queueCount++;
            }
        }
        catch (RuntimeException ex) {
            log.warn("admission tick failed after {} queues; the next tick tries again: {}", queueCount, ex.toString());
            return;
        }
        this.admissions.increment(admitted);
        this.expirations.increment(expired);
        this.abandonments.increment(abandoned);
        this.waitingGauge.set(waitingByProduct);
        this.activeGauge.set(activeByProduct);
        if (admitted > 0 || expired > 0 || abandoned > 0) {
            log.info("admission tick: queues={} admitted={} expired={} abandoned={} active={} waiting={}", queueCount,
                    admitted, expired, abandoned, active, waiting);
        }
    }

}
