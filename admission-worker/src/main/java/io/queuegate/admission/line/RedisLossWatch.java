package io.queuegate.admission.line;

import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.PeriodicTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Notices a Redis that lost the lines, or restarted and may have lost its last writes, while no enter arrives: the
 * writer checks with every batch, but an idle writer gets none, and the sale (settings, entries, bookings, stock)
 * would stay lost until the next enter. One small script (one key, the process's run_id) per interval.
 */
@Component
class RedisLossWatch extends PeriodicTask {

    private static final Logger log = LoggerFactory.getLogger(RedisLossWatch.class);

    private final LineEpoch epoch;

    private final WriterRestart restart;

    RedisLossWatch(LineEpoch epoch, WriterRestart restart, AdmissionProperties properties) {
        super("redis-loss-watch", properties.lossCheckInterval());
        this.epoch = epoch;
        this.restart = restart;
    }

    @Override
    protected void runOnce() {
        try {
            if (this.epoch.lost()) {
                log.warn("Redis lost the lines' epoch or restarted; restarting the writer to restore the sale from the log");
                this.restart.request();
            }
        }
        catch (RuntimeException ex) {
            // Redis not answering: the writer's own retries handle it, and the next check looks again
        }
    }
}
