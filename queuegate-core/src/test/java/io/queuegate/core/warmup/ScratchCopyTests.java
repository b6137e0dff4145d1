package io.queuegate.core.warmup;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A scratch copy's names tell when it started, so that leftovers of a killed warm-up are found by age. */
class ScratchCopyTests {

    @Test
    void aNameTellsWhetherItsCopyStartedBeforeAGivenTime() {
        assertThat(ScratchCopy.startedBefore("warm-up-1000-0badf00d:queue:{1}", 1001)).isTrue();
        assertThat(ScratchCopy.startedBefore("warm-up-1000-0badf00d.entries", 1000)).isFalse();
        assertThat(ScratchCopy.startedBefore("warm-up-2000-0badf00d:queue:{1}", 1001)).isFalse();
    }

    @Test
    void aNameThatIsNotACopysIsNeverALeftover() {
        assertThat(ScratchCopy.startedBefore("warm-up-", Long.MAX_VALUE)).isFalse();
        assertThat(ScratchCopy.startedBefore("warm-up-soon-0badf00d", Long.MAX_VALUE)).isFalse();
        assertThat(ScratchCopy.startedBefore("warm-up-12", Long.MAX_VALUE)).isFalse();
    }
}
