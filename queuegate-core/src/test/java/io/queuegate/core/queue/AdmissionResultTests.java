package io.queuegate.core.queue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionResultTests {

    @Test
    void aTicksTotalAddsUpEveryFieldOfItsSteps() {
        AdmissionResult total = new AdmissionResult(0, 0, 0, 0)
            .plus(new AdmissionResult(3, 1, 7, 40, 2))
            .plus(new AdmissionResult(0, 0, 5, 0, 1));

        assertThat(total).isEqualTo(new AdmissionResult(3, 1, 12, 40, 3));
        assertThat(total.changedAnything()).isTrue();
        assertThat(new AdmissionResult(0, 0, 12, 40).changedAnything()).isFalse();
    }
}
