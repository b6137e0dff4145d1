package io.queuegate.ingest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Which requests skip the per-request HTTP observation: enters and polls, nothing else. */
class BurstPathObservationsTests {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "POST, /api/v1/queues/42/entries, true",
            "GET, /api/v1/queues/42/entries/AU1zdC00OTk56lcMvgBtgSqJV, true",
            "GET, /api/v1/queues/x/entries/t, true",
            "POST, /api/v1/queues/42/entries/, false",
            "POST, /api/v1/queues/42/entries/t, false",
            "GET, /api/v1/queues/42/entries, false",
            "GET, /api/v1/queues/42/entries/, false",
            "GET, /api/v1/queues/42/entries/t/x, false",
            "DELETE, /api/v1/queues/42/entries/t, false",
            "PUT, /api/v1/queues/42/entries, false",
            "GET, /api/v1/queues/42, false",
            "GET, /api/v1/queues, false",
            "GET, /api/v1/queues//entries/t, false",
            "POST, /api/v1/queues/42/entriesX, false",
            "GET, /queues/42, false",
            "GET, /livez, false" })
    void enterAndPollOnly(String method, String path, boolean burst) {
        assertThat(BurstPathObservations.isBurstPath(method, path)).isEqualTo(burst);
    }
}
