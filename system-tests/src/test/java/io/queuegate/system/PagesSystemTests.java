package io.queuegate.system;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the pages rely on over plain HTTP: where they are served, the queue list behind the operator view, and
 * the cross-origin permission that lets the waiting page book at booking-service.
 */
class PagesSystemTests extends StackTests {

    private Reply get(String url, Map<String, String> headers) {
        return this.stack.send("GET", url, null, null, headers);
    }

    @Test
    void theQueueListNeedsTheAdminTokenAndShowsEveryQueueWithItsLine() {
        long small = ownProduct();
        long large = small + 1;
        forgetAfterwards(large);
        this.stack.configure(large, 1, 7, 90, false);
        this.stack.configure(small, 1, 3, 30, true);
        String first = this.stack.enter(small, "listed-0").text("token");
        String second = this.stack.enter(small, "listed-1").text("token");
        await().until(() -> "AVAILABLE".equals(this.stack.status(small, first).text("status"))
                && "WAITING".equals(this.stack.status(small, second).text("status")));

        String url = Stack.url(this.stack.worker, "/api/v1/queues");
        Reply refused = get(url, Map.of());
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.text("code")).isEqualTo("unauthorized");
        assertThat(get(url, Map.of("Authorization", "Bearer wrong")).status()).isEqualTo(401);

        Reply listed = get(url, Stack.AS_ADMIN);
        assertThat(listed.status()).isEqualTo(200);
        List<JsonNode> ours = new ArrayList<>();
        long previous = 0;
        for (JsonNode queue : listed.json().get("queues")) {
            long productId = queue.get("productId").asLong();
            assertThat(productId).as("ordered by product id").isGreaterThan(previous);
            previous = productId;
            if (productId == small || productId == large) {
                ours.add(queue);
            }
        }
        assertThat(ours).hasSize(2);
        JsonNode open = ours.get(0);
        assertThat(open.get("productId").asLong()).isEqualTo(small);
        assertThat(open.get("open").asBoolean()).isTrue();
        assertThat(open.get("admitPerSecond").asInt()).isEqualTo(3);
        assertThat(open.get("entryTtlSeconds").asInt()).isEqualTo(30);
        assertThat(open.get("active").asLong()).isEqualTo(1);
        assertThat(open.get("waiting").asLong()).isEqualTo(1);
        assertThat(open.get("admittedTotal").asLong()).isEqualTo(1);
        JsonNode closed = ours.get(1);
        assertThat(closed.get("open").asBoolean()).isFalse();
        assertThat(closed.get("maxActive").asInt()).isEqualTo(1);
        assertThat(closed.get("waiting").asLong()).isZero();

        this.stack.forget(large);
        assertThat(get(url, Stack.AS_ADMIN).json().get("queues").findValuesAsString("productId"))
            .doesNotContain(Long.toString(large));
    }

    @Test
    void theQueueListIsInTheApiDescription() {
        JsonNode list = get(Stack.url(this.stack.worker, "/v3/api-docs"), Map.of()).json()
            .at("/paths/~1api~1v1~1queues/get");
        assertThat(list.get("summary").asString()).isEqualTo("List every queue");
        assertThat(list.at("/responses/401")).isNotNull();
    }

    @Test
    void ingestServesTheWaitingPageAndTheWorkerTheOperatorView() {
        Reply home = get(Stack.url(this.stack.ingest, "/"), Map.of());
        assertThat(home.status()).isEqualTo(302);
        assertThat(home.header("Location")).endsWith("/queues/1");

        Reply page = get(Stack.url(this.stack.ingest, "/queues/42"), Map.of());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.response().body()).contains("<button id=\"join\" type=\"submit\">");
        assertThat(page.header("Content-Security-Policy")).contains("frame-ancestors 'none'")
            .contains("connect-src 'self' " + Stack.url(this.stack.booking, ""));

        Reply badProduct = get(Stack.url(this.stack.ingest, "/queues/abc"), Map.of());
        assertThat(badProduct.status()).isEqualTo(400);
        assertThat(badProduct.header("Content-Type")).startsWith("application/problem+json");

        assertThat(get(Stack.url(this.stack.ingest, "/queuegate.js"), Map.of()).response().body())
            .contains("Queuegate");
        assertThat(get(Stack.url(this.stack.ingest, "/api/v1/page-settings"), Map.of()).text("bookingUrl"))
            .isEqualTo(Stack.url(this.stack.booking, ""));

        Reply admin = get(Stack.url(this.stack.worker, "/admin"), Map.of());
        assertThat(admin.status()).isEqualTo(200);
        assertThat(admin.response().body()).contains("<label for=\"admin-token\">");

        // one classpath in this JVM, but each service serves only its own page's files
        assertThat(get(Stack.url(this.stack.worker, "/queuegate.js"), Map.of()).status()).isEqualTo(404);
        assertThat(get(Stack.url(this.stack.ingest, "/operator.js"), Map.of()).status()).isEqualTo(404);
        assertThat(get(Stack.url(this.stack.booking, "/operator.js"), Map.of()).status()).isEqualTo(404);
    }

    @Test
    void bookingLetsTheWaitingPageBookFromItsOriginAndNoOtherSite() {
        String bookings = Stack.url(this.stack.booking, "/api/v1/bookings");
        String pageOrigin = Stack.url(this.stack.ingest, "");
        Reply allowed = preflight(bookings, pageOrigin);
        assertThat(allowed.status()).isEqualTo(200);
        assertThat(allowed.header("Access-Control-Allow-Origin")).isEqualTo(pageOrigin);
        assertThat(allowed.header("Access-Control-Allow-Credentials")).isNull();

        Reply foreign = preflight(bookings, "https://elsewhere.example");
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.header("Access-Control-Allow-Origin")).isNull();

        // ingest allows no other origin unless configured
        Reply ingest = preflight(Stack.url(this.stack.ingest, "/api/v1/queues/1/entries"), "https://elsewhere.example");
        assertThat(ingest.header("Access-Control-Allow-Origin")).isNull();
    }

    private Reply preflight(String url, String origin) {
        return this.stack.send("OPTIONS", url, null, null, Map.of("Origin", origin,
                "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"));
    }
}
