package io.queuegate.ingest.front;

import io.queuegate.ingest.front.DoorRoute.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one decision the front makes of a request. Kinds are matched on the raw path as Reactor Netty's route templates
 * matched them ({@code {name}} is any run of characters but {@code /}, the empty one included), so every request
 * reaches the handler it reached before; the allowance follows what WebFlux answers a request as.
 */
class DoorRouteTests {

    @ParameterizedTest(name = "{0} {1} -> {2} {3} {4} {5}")
    @CsvSource(nullValues = "-", value = {
            "POST, /api/v1/queues/42/entries, ENTER, 42, -, ENTER",
            "POST, /api/v1/queues/42/entries?x=1, ENTER, 42, -, ENTER",
            "GET, /api/v1/queues/42/entries/AU1zdC00OTk5, POLL, 42, AU1zdC00OTk5, POLL",
            "GET, /api/v1/queues/x/entries/t, POLL, x, t, POLL",
            "DELETE, /api/v1/queues/42/entries/t, LEAVE, 42, t, ENTER",
            "GET, /api/v1/queues/42/entries/t/events, EVENTS, 42, t, POLL",
            "GET, /api/v1/queues/42/challenge?userId=u, CHALLENGE, 42, -, POLL",
            // a proxy asks the edge check for all its visitors from one address: no allowance per client
            "GET, /api/v1/queues/42/edge-check, EDGE_CHECK, 42, -, -",
            "POST, /api/v1/queues/42/edge-check, OTHER, -, -, -",
            "GET, /api/v1/queues/42/return-url?url=x, OTHER, -, -, -",
            "GET, /livez, PROBE, -, -, -",
            "POST, /readyz?deep, PROBE, -, -, -",
            "POST, /bench/noop/7/entries, NOOP_ENTER, 7, -, -",
            "GET, /bench/noop/7/entries/u1, NOOP_POLL, 7, u1, -",
            // an empty segment is a segment, as the templates had it: the handler refuses the product or token
            "GET, /api/v1/queues/42/entries/, POLL, 42, '', POLL",
            "POST, /api/v1/queues//entries, ENTER, '', -, ENTER",
            // segments are taken as sent
            "GET, /api/v1/queues/42/entries/a%2Fb, POLL, 42, a%2Fb, POLL",
            "POST, /api/v1/queues/42/entries/, OTHER, -, -, -",
            "POST, /api/v1/queues/42/entries/t, OTHER, -, -, -",
            "GET, /api/v1/queues/42/entries, OTHER, -, -, -",
            "DELETE, /api/v1/queues/42/entries, OTHER, -, -, -",
            "GET, /api/v1/queues/42/entries/t/x, OTHER, -, -, -",
            "DELETE, /api/v1/queues/42/entries/t/events, OTHER, -, -, -",
            "GET, /api/v1/queues/42/entries/t/events/x, OTHER, -, -, -",
            "PUT, /api/v1/queues/42/entries, OTHER, -, -, -",
            "POST, /api/v1/queues/42/challenge, OTHER, -, -, -",
            "GET, /api/v1/queues/42, OTHER, -, -, -",
            "GET, /api/v1/queues, OTHER, -, -, -",
            "POST, /api/v1/queues/42/entriesX, OTHER, -, -, -",
            "GET, /queues/42, OTHER, -, -, -",
            "GET, //livez, OTHER, -, -, -",
            "GET, /livez/, OTHER, -, -, -",
            "GET, /bench/noop/7/entries/u1/x, OTHER, -, -, -",
            "GET, /bench/noop/7/challenge, OTHER, -, -, -",
            "GET, /api/v1/page-settings, OTHER, -, -, -",
            // WebFlux decodes each segment before matching: what it answers as an enter or a poll is counted so
            "POST, /api/v1/queues/42/%65ntries, OTHER, -, -, ENTER",
            "GET, /api/v1/queues/42/%65ntries/t, OTHER, -, -, POLL",
            "GET, /api/v1/%71ueues/42/challenge, OTHER, -, -, POLL",
            // an escaped slash stays inside its segment, and a malformed escape matches nothing
            "POST, /api/v1/queues/42%2Fentries, OTHER, -, -, -",
            "POST, /api/v1/queues/42/%zzntries, OTHER, -, -, -",
            "POST, /api/v1/queues/42/%e, OTHER, -, -, -" })
    void eachRequestIsMatchedOnceToItsKindProductTokenAndAllowance(String method, String target, Kind kind,
            String product, String token, PerClientLimits.Kind allowance) {
        DoorRoute route = DoorRoute.of(method, target);

        assertThat(route.kind()).isEqualTo(kind);
        assertThat(route.productId()).isEqualTo(product);
        assertThat(route.token()).isEqualTo(token);
        assertThat(route.allowance()).isEqualTo(allowance);
    }

    @Test
    void streamsAndProbesAreNotWorkInFlightAndOnlyEntersAndPollsAreTheBurstsPaths() {
        assertThat(Kind.values()).filteredOn((kind) -> !kind.inFlight()).containsExactlyInAnyOrder(Kind.EVENTS,
                Kind.PROBE);
        assertThat(Kind.values()).filteredOn(Kind::burst).containsExactlyInAnyOrder(Kind.ENTER, Kind.POLL);
    }
}
