package io.queuegate.ingest.front;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.ingest.LineFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.server.WebFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The service's one HTTP server: the front answers enters and polls on its event loops, hands everything else to
 * Spring WebFlux in the same server, and a client cannot tell the two apart by their answers. A web filter counts
 * what reaches WebFlux; a second service with the fast paths off answers everything through WebFlux, for comparison.
 * The product's line is entered by the shop's backend (identity "trusted"); a second line of the test's own, where
 * the server makes its visitors' ids, is entered as a browser does.
 */
@TestPropertySource(properties = "queuegate.web.allowed-origins=http://shop.example")
class IngestFrontTests extends IngestHttpTestSupport {

    private static final Map<String, AtomicInteger> WEBFLUX_REQUESTS = new ConcurrentHashMap<>();

    private static ConfigurableApplicationContext webFluxOnly;

    @Autowired
    private MeterRegistry metrics;

    @Autowired
    private ApplicationContext context;

    private long product;

    private long visitors;

    @BeforeEach
    void openQueue() {
        this.product = LineFixture.freeProduct(this.redis);
        LineFixture.openUnregistered(this.redis, this.product, 10, 10);
        this.visitors = newOpenQueue(10, 10, Identity.VISITOR);
        WEBFLUX_REQUESTS.clear();
    }

    @AfterEach
    void deleteQueue() {
        this.redis.delete(QueueKeys.of(this.product).all());
    }

    @AfterAll
    static void stopWebFluxOnly() {
        if (webFluxOnly != null) {
            webFluxOnly.close();
            webFluxOnly = null;
        }
    }

    /** The same service with its fast paths off: WebFlux answers every request. */
    private int webFluxOnlyPort() {
        if (webFluxOnly == null) {
            webFluxOnly = startAnother("--spring.kafka.bootstrap-servers=" + this.brokers,
                    "--queuegate.ingest.front.fast-paths=false");
        }
        return portOf(webFluxOnly);
    }

    @Test
    void theServiceAnswersOnOneServerAndCarriesNoServletStack() {
        assertThat(((ReactiveWebServerApplicationContext) this.context).getWebServer())
            .isInstanceOf(NettyWebServer.class)
            .satisfies((server) -> assertThat(server.getPort()).isEqualTo(this.port));
        assertThatThrownBy(() -> Class.forName("org.apache.catalina.startup.Tomcat"))
            .isInstanceOf(ClassNotFoundException.class);
        assertThat(get(this.port, "/readyz").statusCode()).isEqualTo(200);
    }

    @Test
    void wellFormedEntersAndPollsAreAnsweredWithoutWebFlux() {
        // the queue's first enter too: it reads the queue from Redis on a thread of its own
        assertThat(enter(this.port, "first").statusCode()).isEqualTo(202);

        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> accepted = enter(this.port, "user-" + i);
            assertThat(accepted.statusCode()).isEqualTo(202);
            tokens.add(json(accepted).get("token").asString());
        }
        LineFixture.append(this.redis, this.product, List.of("first", "user-0", "user-1"));
        for (String token : tokens) {
            assertThat(poll(this.port, token).statusCode()).isEqualTo(200);
        }
        assertThat(json(poll(this.port, tokens.get(1))).get("position").asLong()).isEqualTo(3);
        // a visitor's first enter, and one again with its token, as the waiting page sends them
        HttpResponse<String> visitor = send(visitorEnter(this.port, "{}"));
        assertThat(visitor.statusCode()).isEqualTo(202);
        String visitorToken = json(visitor).get("token").asString();
        assertThat(send(visitorEnter(this.port, "{\"token\":\"" + visitorToken + "\"}")).statusCode()).isEqualTo(202);

        assertThat(WEBFLUX_REQUESTS).isEmpty();
    }

    @Test
    void theFastPathsAnswerAsWebFluxDoes() {
        int webFluxPort = webFluxOnlyPort();
        enter(this.port, "warm-up");
        String token = json(enter(webFluxPort, "polled")).get("token").asString();
        LineFixture.append(this.redis, this.product, List.of("warm-up", "polled"));
        String visitorToken = json(send(visitorEnter(this.port, "{}"))).get("token").asString();
        String entries = "/api/v1/queues/" + this.product + "/entries";
        String visitorEntries = "/api/v1/queues/" + this.visitors + "/entries";
        List<HttpRequest.Builder> requests = List.of(
                withEnterKey(post(entries, "application/json", "{\"userId\":\"alice\"}"))
                    .header("X-Request-Id", "parity-1"),
                withEnterKey(post(entries, "application/json;charset=UTF-8", "{\"userId\":\"alice\",\"extra\":1}")),
                withEnterKey(post(entries, "application/json", "{\"userId\":\"has space\"}")),
                withEnterKey(post(entries, "application/json", "{\"userId\":null}")),
                withEnterKey(post(entries, "application/json", "{}")),
                post(entries, "application/json", "{\"userId\":\"alice\"}"),
                post(entries, "application/json", "{\"userId\":\"alice\"}").header("Authorization", "Bearer nope"),
                post(entries, "application/json", "{\"token\":\"" + token + "\"}"),
                withEnterKey(post(entries, "application/json", "not json")),
                withEnterKey(post(entries, "text/plain", "{\"userId\":\"alice\"}")),
                withEnterKey(post(entries, "application/json", "{\"userId\":\"" + "x".repeat(5000) + "\"}")),
                withEnterKey(post("/api/v1/queues/0" + this.product + "/entries", "application/json",
                        "{\"userId\":\"alice\"}")),
                withEnterKey(post("/api/v1/queues/" + (this.product + 1) + "/entries", "application/json",
                        "{\"userId\":\"a\"}")),
                post(visitorEntries, "application/json", "{\"token\":\"" + visitorToken + "\"}"),
                post(visitorEntries, "application/json", "{\"token\":\"" + token + "\"}"),
                post(visitorEntries, "application/json", "{\"token\":\"" + visitorToken + "\",\"userId\":\"a\"}"),
                post(visitorEntries, "application/json", "{\"userId\":\"alice\"}"),
                withEnterKey(post(visitorEntries, "application/json", "{\"userId\":\"alice\"}")),
                request(entries + "/" + token, "GET"),
                request(entries + "/" + token + "?cache=no", "GET"),
                request(entries + "/not-a-token", "GET"),
                request("/api/v1/queues/abc/entries/" + token, "GET"),
                request(entries, "GET"),
                request("/no/such/path", "GET"));
        for (HttpRequest.Builder request : requests) {
            HttpResponse<String> front = send(request.copy().uri(uri(this.port, request)));
            HttpResponse<String> webFlux = send(request.copy().uri(uri(webFluxPort, request)));
            String what = request.build().method() + " " + request.build().uri();

            assertThat(front.statusCode()).as(what).isEqualTo(webFlux.statusCode());
            assertThat(mediaType(front)).as(what).isEqualTo(mediaType(webFlux));
            assertThat(front.headers().firstValue("Location")).as(what)
                .isEqualTo(webFlux.headers().firstValue("Location"));
            assertThat(front.headers().firstValue("Retry-After")).as(what)
                .isEqualTo(webFlux.headers().firstValue("Retry-After"));
            assertThat(front.headers().firstValue("X-Request-Id")).as(what).isPresent();
            JsonNode frontBody = json(front);
            JsonNode webFluxBody = json(webFlux);
            if (front.statusCode() >= 400) {
                assertThat(frontBody).as(what).isEqualTo(webFluxBody);
                assertThat(frontBody.get("code").asString()).as(what).isNotBlank();
            }
            else {
                for (String field : List.of("token", "userId", "productId", "status", "position", "expiresAt")) {
                    assertThat(frontBody.get(field)).as(what + " " + field).isEqualTo(webFluxBody.get(field));
                }
            }
        }
        // a visitor's first enter: each is given an id and a place of its own, answered alike
        HttpResponse<String> front = send(visitorEnter(this.port, "{}"));
        HttpResponse<String> webFlux = send(visitorEnter(webFluxPort, "{}"));
        assertThat(front.statusCode()).isEqualTo(webFlux.statusCode()).isEqualTo(202);
        assertThat(mediaType(front)).isEqualTo(mediaType(webFlux));
        assertThat(json(front).propertyNames()).containsExactlyInAnyOrderElementsOf(json(webFlux).propertyNames());
        assertThat(json(front).get("userId").asString()).isNotEqualTo(json(webFlux).get("userId").asString());
        assertThat(front.headers().firstValue("Location"))
            .hasValue(visitorEntries + "/" + json(front).get("token").asString());
        assertThat(webFlux.headers().firstValue("Location"))
            .hasValue(visitorEntries + "/" + json(webFlux).get("token").asString());

        HttpResponse<String> echoed = send(withEnterKey(post(entries, "application/json", "{\"userId\":\"bob\"}"))
            .header("X-Request-Id", "echo-7").uri(URI.create("http://127.0.0.1:" + this.port + entries)));
        assertThat(echoed.headers().firstValue("X-Request-Id")).hasValue("echo-7");
    }

    @Test
    void whatTheFrontDoesNotAnswerReachesWebFluxWholeAndComesBackWhole() {
        String token = json(enter(this.port, "leaving")).get("token").asString();

        HttpResponse<String> page = get(this.port, "/queues/" + this.product + "?lang=en");
        HttpResponse<String> direct = get(webFluxOnlyPort(), "/queues/" + this.product + "?lang=en");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).isEqualTo(direct.body());
        assertThat(mediaType(page)).isEqualTo("text/html");
        assertThat(page.headers().firstValue("Content-Security-Policy"))
            .isEqualTo(direct.headers().firstValue("Content-Security-Policy")).isPresent();

        HttpResponse<String> left = send(request("/api/v1/queues/" + this.product + "/entries/" + token, "DELETE")
            .uri(URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + this.product + "/entries/" + token)));
        assertThat(left.statusCode()).isEqualTo(204);
        assertThat(WEBFLUX_REQUESTS).containsKeys("/queues/" + this.product,
                "/api/v1/queues/" + this.product + "/entries/" + token);
    }

    @Test
    void theApiDescriptionIsServedThroughWebFlux() {
        HttpResponse<String> description = get(this.port, "/v3/api-docs");

        assertThat(description.statusCode()).isEqualTo(200);
        assertThat(json(description).at("/paths/~1api~1v1~1queues~1{productId}~1entries/post/operationId")
            .isMissingNode()).isFalse();
        assertThat(WEBFLUX_REQUESTS).containsKey("/v3/api-docs");
    }

    @Test
    void aCrossOriginCallIsDecidedByWebFluxsCorsSettings() {
        // a browser's enter: a visitor's, on a page of the shop's or of this service
        send(visitorEnter(this.port, "{}"));
        WEBFLUX_REQUESTS.clear();
        String entries = "/api/v1/queues/" + this.visitors + "/entries";

        HttpResponse<String> allowed = send(visitorEnter(this.port, "{}").header("Origin", "http://shop.example"));
        HttpResponse<String> refused = send(visitorEnter(this.port, "{}").header("Origin", "http://evil.example"));

        assertThat(allowed.statusCode()).isEqualTo(202);
        assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue("http://shop.example");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(WEBFLUX_REQUESTS.get(entries)).hasValue(2);

        // a same-origin page's POST carries Origin too, and stays on the front
        WEBFLUX_REQUESTS.clear();
        HttpResponse<String> sameOrigin = send(visitorEnter(this.port, "{}")
            .header("Origin", "http://127.0.0.1:" + this.port));
        assertThat(sameOrigin.statusCode()).isEqualTo(202);
        assertThat(WEBFLUX_REQUESTS).isEmpty();
    }

    @Test
    void requestsThatAreNotPlainHttpAreRefusedBeforeAnyRoute() throws Exception {
        // a visitor's enter, which is accepted as it is when it is sent as plain HTTP (below)
        send(visitorEnter(this.port, "{}"));
        double accepted = this.metrics.counter("queuegate.enters", "outcome", "accepted").count();
        String entries = "/api/v1/queues/" + this.visitors + "/entries";
        String body = "{}";
        String json = "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n";
        Map<String, String> requests = Map.of(
                "absolute-form target", "POST http://evil.example" + entries + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + json,
                "asterisk target", "POST * HTTP/1.1\r\nHost: 127.0.0.1\r\n" + json,
                "no Host", "POST " + entries + " HTTP/1.1\r\n" + json,
                "two Hosts", "POST " + entries + " HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil\r\n" + json,
                "path parameters", "POST /api/v1/queues/" + this.product + ";x=1/entries HTTP/1.1\r\nHost: a\r\n"
                        + json,
                "gzip transfer coding", "POST " + entries + " HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked"
                        + "\r\nContent-Type: application/json\r\n",
                "declared body over the limit", "POST " + entries + " HTTP/1.1\r\nHost: a\r\nContent-Type: "
                        + "application/json\r\nContent-Length: 5000\r\n");
        for (Map.Entry<String, String> request : requests.entrySet()) {
            String head = request.getValue() + "Connection: close\r\n\r\n";
            String sent = head.contains("chunked") ? head + Integer.toHexString(body.length()) + "\r\n" + body
                    + "\r\n0\r\n\r\n" : head.contains("5000") ? head + "x".repeat(5000) : head + body;
            String answer;
            try {
                answer = RawHttp.exchange(this.port, sent);
            }
            catch (java.io.IOException ex) {
                throw new AssertionError(request.getKey() + ": " + ex, ex);
            }
            assertThat(answer).as(request.getKey()).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
        }
        // nothing was accepted, so nothing was published
        assertThat(this.metrics.counter("queuegate.enters", "outcome", "accepted").count()).isEqualTo(accepted);
        // the same enter as plain HTTP is
        assertThat(RawHttp.exchange(this.port, "POST " + entries + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + json
                + "Connection: close\r\n\r\n" + body)).startsWith("HTTP/1.1 202");
    }

    /** The shop's backend entering its user in the product's line. */
    private HttpResponse<String> enter(int port, String userId) {
        return send(enterOf(port, this.product, userId));
    }

    /** A browser's enter of the visitors' line with this body. */
    private HttpRequest.Builder visitorEnter(int port, String body) {
        String path = "/api/v1/queues/" + this.visitors + "/entries";
        return post(path, "application/json", body).uri(URI.create("http://127.0.0.1:" + port + path));
    }

    private HttpResponse<String> poll(int port, String token) {
        return get(port, "/api/v1/queues/" + this.product + "/entries/" + token);
    }

    private static HttpRequest.Builder post(String path, String contentType, String body) {
        return HttpRequest.newBuilder(URI.create("http://placeholder" + path))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpRequest.Builder request(String path, String method) {
        return HttpRequest.newBuilder(URI.create("http://placeholder" + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    }

    private static URI uri(int port, HttpRequest.Builder request) {
        URI placeholder = request.build().uri();
        return URI.create("http://127.0.0.1:" + port + placeholder.getRawPath()
                + (placeholder.getRawQuery() == null ? "" : "?" + placeholder.getRawQuery()));
    }

    private static String mediaType(HttpResponse<String> response) {
        Optional<String> type = response.headers().firstValue("Content-Type");
        return type.map((value) -> value.split(";")[0].trim()).orElse(null);
    }

    private static JsonNode json(HttpResponse<String> response) {
        return response.body().isEmpty() ? JsonMapper.shared().createObjectNode()
                : JsonMapper.shared().readTree(response.body());
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class WebFluxRequestCounting {

        /** Counts, by path, the requests that reach WebFlux. */
        @Bean
        WebFilter webFluxRequestCounter() {
            return (exchange, chain) -> {
                WEBFLUX_REQUESTS.computeIfAbsent(exchange.getRequest().getPath().value(),
                        (key) -> new AtomicInteger()).incrementAndGet();
                return chain.filter(exchange);
            };
        }
    }
}
