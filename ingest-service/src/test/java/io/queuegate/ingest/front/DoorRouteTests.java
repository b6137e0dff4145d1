package io.queuegate.ingest.front;

import io.queuegate.ingest.front.DoorRoute.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one decision the front makes of a request. The paths are matched as Reactor Netty's route templates matched
 * them ({@code {name}} is any run of characters but {@code /}, the empty one included), so every request reaches the
 * handler it reached before.
 */
class DoorRouteTests {

    @ParameterizedTest(name = "{0} {1} -> {2} {3} {4}")
    @CsvSource(nullValues = "-", value = {
            "POST, /api/v1/queues/42/entries, ENTER, 42, -",
            "GET, /api/v1/queues/42/entries/AU1zdC00OTk5, POLL, 42, AU1zdC00OTk5",
            "GET, /api/v1/queues/x/entries/t, POLL, x, t",
            "DELETE, /api/v1/queues/42/entries/t, LEAVE, 42, t",
            "GET, /api/v1/queues/42/entries/t/events, EVENTS, 42, t",
            "GET, /api/v1/queues/42/challenge, CHALLENGE, 42, -",
            "GET, /livez, PROBE, -, -",
            "POST, /readyz, PROBE, -, -",
            "POST, /bench/noop/7/entries, NOOP_ENTER, 7, -",
            "GET, /bench/noop/7/entries/u1, NOOP_POLL, 7, u1",
            // an empty segment is a segment, as the templates had it: the handler refuses the product or token
            "GET, /api/v1/queues/42/entries/, POLL, 42, ''",
            "POST, /api/v1/queues//entries, ENTER, '', -",
            "POST, /api/v1/queues/42/entries/, OTHER, -, -",
            "POST, /api/v1/queues/42/entries/t, OTHER, -, -",
            "GET, /api/v1/queues/42/entries, OTHER, -, -",
            "DELETE, /api/v1/queues/42/entries, OTHER, -, -",
            "GET, /api/v1/queues/42/entries/t/x, OTHER, -, -",
            "DELETE, /api/v1/queues/42/entries/t/events, OTHER, -, -",
            "GET, /api/v1/queues/42/entries/t/events/x, OTHER, -, -",
            "PUT, /api/v1/queues/42/entries, OTHER, -, -",
            "POST, /api/v1/queues/42/challenge, OTHER, -, -",
            "GET, /api/v1/queues/42, OTHER, -, -",
            "GET, /api/v1/queues, OTHER, -, -",
            "POST, /api/v1/queues/42/entriesX, OTHER, -, -",
            "GET, /queues/42, OTHER, -, -",
            "GET, /livez/, OTHER, -, -",
            "GET, /bench/noop/7/entries/u1/x, OTHER, -, -",
            "GET, /bench/noop/7/challenge, OTHER, -, -",
            "GET, /api/v1/page-settings, OTHER, -, -" })
    void eachRequestIsMatchedOnceToItsKindProductAndToken(String method, String path, Kind kind, String product,
            String token) {
        DoorRoute route = DoorRoute.of(method, path);

        assertThat(route.kind()).isEqualTo(kind);
        assertThat(route.productId()).isEqualTo(product);
        assertThat(route.token()).isEqualTo(token);
    }

    @Test
    void entersAndLeavesTakeTheEnterAllowancePollsChallengesAndStreamsThePollOneAndNothingElseIsCounted() {
        assertThat(Kind.ENTER.allowance()).isEqualTo(PerClientLimits.Kind.ENTER);
        // a leave writes to the log as an enter does
        assertThat(Kind.LEAVE.allowance()).isEqualTo(PerClientLimits.Kind.ENTER);
        assertThat(Kind.POLL.allowance()).isEqualTo(PerClientLimits.Kind.POLL);
        assertThat(Kind.CHALLENGE.allowance()).isEqualTo(PerClientLimits.Kind.POLL);
        assertThat(Kind.EVENTS.allowance()).isEqualTo(PerClientLimits.Kind.POLL);
        assertThat(Kind.PROBE.allowance()).isNull();
        assertThat(Kind.NOOP_ENTER.allowance()).isNull();
        assertThat(Kind.OTHER.allowance()).isNull();
    }

    @Test
    void streamsAndProbesAreNotWorkInFlightAndOnlyEntersAndPollsAreTheBurstsPaths() {
        assertThat(Kind.values()).filteredOn((kind) -> !kind.inFlight()).containsExactlyInAnyOrder(Kind.EVENTS,
                Kind.PROBE);
        assertThat(Kind.values()).filteredOn(Kind::burst).containsExactlyInAnyOrder(Kind.ENTER, Kind.POLL);
    }

    @Test
    void aTargetThatIsNotAUriIsOther() {
        assertThat(DoorRoute.of("GET", null).kind()).isEqualTo(Kind.OTHER);
    }
}
