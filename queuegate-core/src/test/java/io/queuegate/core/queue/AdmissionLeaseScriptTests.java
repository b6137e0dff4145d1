package io.queuegate.core.queue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code admit_batch.lua} with the queue's admission lease: the step renews the caller's lease or takes a free one,
 * and changes nothing for a caller while another worker holds it, so one worker at a time runs a queue's steps.
 */
class AdmissionLeaseScriptTests extends RedisScriptTestSupport {

    private static final long LEASE_MS = 60_000;

    private static final long LIMIT = Admission.AUDIT_BACKLOG_LIMIT;

    @Test
    void theFirstCallerTakesTheLeaseAndAnotherChangesNothingWhileItHoldsIt() {
        configure(2, 1_000, 600, true);
        this.line.append(this.product, tokens("t", 5));

        AdmissionResult first = this.admission.admitAsHolder(this.product, NOW, 100, "worker-a", LEASE_MS, LIMIT)
            .orElseThrow();
        assertThat(first.admitted()).isEqualTo(2);
        assertThat(redis.opsForValue().get(this.keys.admissionLease())).isEqualTo("worker-a");
        assertThat(redis.getExpire(this.keys.admissionLease())).isPositive();

        // capacity freed (an entry left): the other worker may not fill it while worker-a holds the lease
        this.remover.remove(token("t-00001"));
        assertThat(this.admission.admitAsHolder(this.product, NOW + 10, 100, "worker-b", LEASE_MS, LIMIT))
            .isEmpty();
        assertThat(entry()).containsExactly("t-00002");
        assertThat(stat("admittedTotal")).isEqualTo(2);

        AdmissionResult renewed = this.admission
            .admitAsHolder(this.product, NOW + 20, 100, "worker-a", LEASE_MS, LIMIT)
            .orElseThrow();
        assertThat(renewed.admitted()).isEqualTo(1);
        assertThat(redis.opsForValue().get(this.keys.admissionLease())).isEqualTo("worker-a");
    }

    @Test
    void aLapsedOrReleasedLeaseIsTakenOverAndTheOldHolderIsRefusedFromThen() {
        configure(1, 1_000, 1, true);
        this.line.append(this.product, tokens("t", 5));
        assertThat(this.admission.admitAsHolder(this.product, NOW, 100, "worker-a", LEASE_MS, LIMIT)).isPresent();

        // the holder died: its lease lapses (here: is gone), and the next caller takes it over
        redis.delete(this.keys.admissionLease());
        AdmissionResult takenOver = this.admission.admitAsHolder(this.product, NOW + 2_000, 100, "worker-b",
                LEASE_MS, LIMIT).orElseThrow();
        assertThat(takenOver.expired()).isEqualTo(1);
        assertThat(takenOver.admitted()).isEqualTo(1);
        assertThat(redis.opsForValue().get(this.keys.admissionLease())).isEqualTo("worker-b");

        // the old holder comes back late (a long pause): it is refused, and changes nothing
        assertThat(this.admission.admitAsHolder(this.product, NOW + 4_000, 100, "worker-a", LEASE_MS, LIMIT))
            .isEmpty();
        assertThat(entry()).containsExactly("t-00002");
        assertThat(stat("expiredTotal")).isEqualTo(1);
    }

    @Test
    void aQueueWithoutSettingsTakesNoLease() {
        assertThat(this.admission.admitAsHolder(this.product, NOW, 100, "worker-a", LEASE_MS, LIMIT))
            .contains(AdmissionResult.UNKNOWN_QUEUE);
        assertThat(redis.hasKey(this.keys.admissionLease())).isFalse();
    }
}
