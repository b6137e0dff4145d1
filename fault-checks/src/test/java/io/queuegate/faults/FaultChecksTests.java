package io.queuegate.faults;

import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FaultChecksTests {

    @Test
    void theKeyNamesAreTheOnesQueueKeysBuildsWithTheProductTagLast() {
        String json = FaultChecks.keys(42);

        QueueKeys keys = QueueKeys.of(42);
        assertThat(json).contains("\"waiting\": \"" + keys.waiting() + "\"", "\"entry\": \"" + keys.entry() + "\"",
                "\"gone\": \"" + keys.gone() + "\"", "\"settings\": \"" + keys.settings() + "\"",
                "\"stats\": \"" + keys.stats() + "\"", "\"bookings\": \"" + keys.bookings() + "\"",
                "\"reservationLease\": \"" + keys.reservationLease() + "\"",
                "\"admissionWorkers\": \"queuegate:queues:workers\"");
        // the runner turns product 0's names into any product's by their trailing {<id>} tag
        for (String name : keys.all()) {
            assertThat(name).endsWith("{42}");
        }
    }
}
