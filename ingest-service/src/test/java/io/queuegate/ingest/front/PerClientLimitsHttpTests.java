package io.queuegate.ingest.front;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.queuegate.core.queue.Identity;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits per client through the service's door: each client is a loopback address of its own (127.0.0.3 and
 * up), 127.0.0.2 is a trusted proxy whose clients are named by X-Forwarded-For.
 */
class PerClientLimitsHttpTests extends IngestHttpTestSupport {

    @DynamicPropertySource
    static void limits(DynamicPropertyRegistry registry) {
        registry.add("queuegate.ingest.per-client.enabled", () -> "true");
        registry.add("queuegate.ingest.per-client.enter-burst", () -> "3");
        registry.add("queuegate.ingest.per-client.enters-per-minute", () -> "1");
        registry.add("queuegate.ingest.per-client.poll-burst", () -> "4");
        registry.add("queuegate.ingest.per-client.polls-per-second", () -> "1");
        registry.add("queuegate.ingest.trusted-proxies", () -> "127.0.0.2/32");
    }

    long product;

    @BeforeEach
    void openQueue() {
        this.product = newOpenQueue(1, 1, Identity.VISITOR);
    }

    @Test
    void aClientOverItsEnterLimitIsAnswered429WhileItsPollsAndOtherClientsGoOn() throws Exception {
        HttpClient one = clientFrom("127.0.0.3");
        String firstToken = null;
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> entered = enter(one, null);
            assertThat(entered.statusCode()).as("enter %d", i).isEqualTo(202);
            firstToken = firstToken == null ? json(entered).get("token").asString() : firstToken;
        }
        HttpResponse<String> refused = enter(one, null);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json(refused).get("code").asString()).isEqualTo("too_many_requests");
        // one enter a minute after the burst: the next in about a minute
        assertThat(refused.headers().firstValueAsLong("Retry-After").orElseThrow()).isBetween(50L, 60L);

        assertThat(poll(one, firstToken, null).statusCode()).isEqualTo(200);
        assertThat(enter(clientFrom("127.0.0.4"), null).statusCode()).isEqualTo(202);
    }

    @Test
    void aClientOverItsPollLimitIsAnswered429AndMayStillEnter() throws Exception {
        HttpClient one = clientFrom("127.0.0.5");
        String token = json(enter(one, null)).get("token").asString();
        for (int i = 0; i < 4; i++) {
            assertThat(poll(one, token, null).statusCode()).as("poll %d", i).isEqualTo(200);
        }
        HttpResponse<String> refused = poll(one, token, null);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("code").asString()).isEqualTo("too_many_requests");
        assertThat(refused.headers().firstValueAsLong("Retry-After").orElseThrow()).isEqualTo(1L);
        assertThat(enter(one, null).statusCode()).isEqualTo(202);
    }

    @Test
    void clientsBehindATrustedProxyAreLimitedEachAndAHeaderFromAnyoneElseChangesNothing() throws Exception {
        HttpClient proxy = clientFrom("127.0.0.2");
        for (int i = 0; i < 3; i++) {
            assertThat(enter(proxy, "198.51.100.7").statusCode()).isEqualTo(202);
        }
        // what the client wrote left of what the proxy appended is not believed
        assertThat(enter(proxy, "192.0.2.1, 198.51.100.7").statusCode()).isEqualTo(429);
        assertThat(enter(proxy, "198.51.100.8").statusCode()).isEqualTo(202);

        HttpClient stranger = clientFrom("127.0.0.6");
        for (int i = 0; i < 3; i++) {
            assertThat(enter(stranger, "198.51.100." + (20 + i)).statusCode()).isEqualTo(202);
        }
        assertThat(enter(stranger, "198.51.100.30").statusCode()).isEqualTo(429);
    }

    @Test
    void anEnterSpelledWithEscapesIsCountedAsTheEnterItIsAnsweredAs() throws Exception {
        HttpClient one = clientFrom("127.0.0.7");
        for (int i = 0; i < 3; i++) {
            assertThat(enter(one, null, "/%65ntries").statusCode()).as("escaped enter %d", i).isEqualTo(202);
        }
        assertThat(enter(one, null, "/%65ntries").statusCode()).isEqualTo(429);
        assertThat(enter(one, null).statusCode()).isEqualTo(429);
    }

    /** A visitor's enter, as a browser sends it. */
    private HttpResponse<String> enter(HttpClient client, String forwardedFor)
            throws IOException, InterruptedException {
        return enter(client, forwardedFor, "/entries");
    }

    /** An enter to the product's path followed by {@code entries}, spelled as given. */
    private HttpResponse<String> enter(HttpClient client, String forwardedFor, String entries)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + this.product + entries))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> poll(HttpClient client, String token, String forwardedFor)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port
                + "/api/v1/queues/" + this.product + "/entries/" + token)).timeout(Duration.ofSeconds(20)).GET();
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient clientFrom(String address) throws IOException {
        return HttpClient.newBuilder().localAddress(InetAddress.getByName(address))
            .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JsonMapper.shared().readTree(response.body());
    }
}
