package io.queuegate.system;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionSigner;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;
import io.queuegate.system.EdgeProxies.Proxy;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A shop's site protected at its edge by the real nginx (auth_request, asking ingest's edge check) and the real
 * HAProxy (jwt_verify, offline), each in front of the demo origin ({@code ops/edge}, started by {@code edge.sh}), with
 * the stack behind them: a visitor in headless Chromium goes from the protected page to the waiting page and back with
 * the admission gone from the URL; an empty line lets a visitor straight through; admissions that are not valid send
 * the visitor to the line; and with Queuegate not answering, a fail-open location lets visitors through and a
 * fail-closed one says the room is unavailable. "Not answering" is an address where no Queuegate runs: what the
 * proxies see of a stopped one, without stopping the stack the other tests share.
 */
class EdgeSystemTests extends StackTests {

    private static final String SHOP_CONTENT = "The demo shop's tickets";

    private final EdgeProxies edges = new EdgeProxies();

    private final List<Browser> browsers = new ArrayList<>();

    @AfterEach
    void stopProxiesAndBrowsers() {
        this.browsers.forEach(Browser::close);
        this.edges.close();
    }

    private String queuegate() {
        return "127.0.0.1:" + URI.create(Stack.url(this.stack.ingest, "")).getPort();
    }

    private String waitingRoom() {
        return "http://" + queuegate();
    }

    /** An open line of identity "visitor" that returns people to these proxies. */
    private void configure(long productId, int maxActive, int ttlSeconds, Proxy... proxies) {
        StringBuilder hosts = new StringBuilder();
        for (Proxy proxy : proxies) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("\"127.0.0.1:").append(proxy.port()).append('"');
        }
        Reply configured = this.stack.admin("PUT", "/api/v1/queues/" + productId, """
                {"maxActive":%d,"admitPerSecond":10,"entryTtlSeconds":%d,"open":true,"identity":"visitor",\
                "returnHosts":[%s]}""".formatted(maxActive, ttlSeconds, hosts));
        assertThat(configured.status()).as(configured.response().body()).isEqualTo(200);
    }

    private Reply get(String url, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (headers.length > 0) {
            request.headers(headers);
        }
        return this.stack.send(request.timeout(Stack.ANSWER_WITHIN).build());
    }

    /** A visitor admitted through the API: their token and admission. */
    private String[] admittedVisitor(long productId) {
        String token = visited(productId);
        awaitStatus(productId, token, "AVAILABLE");
        return new String[] { token, this.stack.status(productId, token).text("admission") };
    }

    private Browser browser() {
        Browser browser = Browser.desktop();
        this.browsers.add(browser);
        return browser;
    }

    /** Through the line and back: the protected page, the waiting page while someone else holds the one place, back. */
    private void walkThroughTheLine(Proxy proxy, long productId) {
        String protectedPage = proxy.url("/index.html?seat=A1");
        Browser visitor = browser();

        visitor.open(protectedPage);

        visitor.await("the waiting page of product " + productId,
                (driver) -> driver.getCurrentUrl().startsWith(waitingRoom() + "/queues/" + productId + "?return="));
        visitor.await("back at the origin", (driver) -> driver.getCurrentUrl().equals(protectedPage)
                && visitor.visible("#shop"));
        assertThat(visitor.text("#shop")).isEqualTo(SHOP_CONTENT);
        // the cookie holds the admission now: the same page again stays at the origin
        visitor.open(proxy.url("/index.html?again=1"));
        visitor.await("the origin again", (driver) -> visitor.visible("#shop"));
        assertThat(visitor.script("return location.href")).isEqualTo(proxy.url("/index.html?again=1"));
    }

    @Test
    void throughNginxAVisitorWaitsInLineAndComesBackToTheOriginWithTheAdmissionGoneFromTheUrl() {
        long productId = ownProduct();
        Proxy nginx = this.edges.nginx(queuegate(), waitingRoom(), productId, Stack.freePort());
        configure(productId, 1, 4, nginx);
        admittedVisitor(productId);

        walkThroughTheLine(nginx, productId);
    }

    @Test
    void throughHaproxyAVisitorWaitsInLineAndComesBackToTheOriginWithTheAdmissionGoneFromTheUrl() {
        long productId = ownProduct();
        int origin = Stack.freePort();
        this.edges.nginx(queuegate(), waitingRoom(), productId, origin);
        Proxy haproxy = this.edges.haproxy(queuegate(), waitingRoom(), productId, origin, "closed");
        configure(productId, 1, 4, haproxy);
        admittedVisitor(productId);

        walkThroughTheLine(haproxy, productId);
    }

    @Test
    void anEmptyLineLetsAVisitorStraightThroughNginx() {
        long productId = ownProduct();
        Proxy nginx = this.edges.nginx(queuegate(), waitingRoom(), productId, Stack.freePort());
        configure(productId, 5, 60, nginx);

        Reply first = get(nginx.url("/index.html"));
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.response().body()).contains(SHOP_CONTENT);
        assertThat(first.header("Set-Cookie")).startsWith("qg_admission_" + productId + "=")
            .contains("HttpOnly", "SameSite=Lax");

        Browser visitor = browser();
        visitor.open(nginx.url("/index.html?straight=1"));
        visitor.await("the origin at once", (driver) -> visitor.visible("#shop"));
        assertThat(visitor.script("return location.href")).isEqualTo(nginx.url("/index.html?straight=1"));
        assertThat(this.stack.redis.opsForZSet().size(io.queuegate.core.queue.QueueKeys.of(productId).entry())).isEqualTo(2);
    }

    @Test
    void nginxSendsExpiredForgedOtherProductsAndRevokedAdmissionsBackToTheLine() {
        long productId = ownProduct();
        long other = ownProduct();
        Proxy nginx = this.edges.nginx(queuegate(), waitingRoom(), productId, Stack.freePort());
        configure(productId, 5, 60, nginx);
        configure(other, 5, 60, nginx);
        String[] visitor = admittedVisitor(productId);
        String admission = visitor[1];
        String othersAdmission = admittedVisitor(other)[1];
        AdmissionKeys keys = this.stack.ingest.getBean(AdmissionKeys.class);
        String expired = new AdmissionSigner(keys, this.stack.ingest.getBean(TokenProperties.class).issuer()).sign(
                this.stack.ingest.getBean(TokenCodec.class).issue(productId, "expired-visitor"),
                System.currentTimeMillis() - 10_000);
        String forged = admission.substring(0, admission.lastIndexOf('.') + 1) + "A".repeat(86);
        String cookie = "qg_admission_" + productId + "=";

        assertThat(get(nginx.url("/index.html"), "Cookie", cookie + admission).status()).isEqualTo(200);
        String toTheLine = waitingRoom() + "/queues/" + productId + "?return=";
        for (String bad : List.of(expired, forged, othersAdmission, admission.substring(0, 40))) {
            Reply refused = get(nginx.url("/index.html"), "Cookie", cookie + bad, "Accept", "text/html");
            assertThat(refused.status()).isEqualTo(302);
            assertThat(URLDecoder.decode(refused.header("Location"), StandardCharsets.UTF_8))
                .isEqualTo(toTheLine + nginx.url("/index.html"));
        }
        Reply json = get(nginx.url("/api/tickets.json"), "Accept", "application/json", "Cookie", cookie + forged);
        assertThat(json.status()).isEqualTo(403);
        assertThat(json.header("Content-Type")).startsWith("application/problem+json");
        assertThat(json.text("code")).isEqualTo("queue_required");
        assertThat(json.text("waitingPage")).startsWith(toTheLine);

        // back from the line: the cookie is set and the admission leaves the URL
        Reply back = get(nginx.url("/index.html?qg_admission=" + admission + "&x=1"));
        assertThat(back.status()).isEqualTo(302);
        assertThat(back.header("Location")).isEqualTo(nginx.url("/index.html?x=1"));
        assertThat(back.header("Set-Cookie")).startsWith(cookie + admission + ";")
            .contains("HttpOnly", "SameSite=Lax").doesNotContain("Secure");

        Reply revoked = this.stack.admin("DELETE", "/api/v1/queues/" + productId + "/entries/" + visitor[0]);
        assertThat(revoked.status()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
            .until(() -> get(nginx.url("/index.html"), "Cookie", cookie + admission).status() == 302);
    }

    @Test
    void aQueueTakesOnlyHostNamesAndAddressesAsItsReturnHosts() {
        long productId = ownProduct();
        for (String hosts : List.of("[\"https://shop.example\"]", "[\"*.shop.example\"]", "[\"Shop.Example\"]",
                "[\"shop.example/x\"]", "[\"user@shop.example\"]", "[\"shop.example:0\"]", "[]",
                "[" + "\"a.example\",".repeat(20) + "\"b.example\"]")) {
            Reply refused = this.stack.admin("PUT", "/api/v1/queues/" + productId, """
                    {"maxActive":5,"admitPerSecond":10,"entryTtlSeconds":60,"open":true,"returnHosts":%s}"""
                .formatted(hosts));
            assertThat(refused.status()).as(hosts).isEqualTo(400);
            assertThat(refused.text("code")).isEqualTo("invalid_request");
        }
        assertThat(this.stack.admin("GET", "/api/v1/queues/" + productId).status()).isEqualTo(404);
        Reply taken = this.stack.admin("PUT", "/api/v1/queues/" + productId, """
                {"maxActive":5,"admitPerSecond":10,"entryTtlSeconds":60,"open":true,\
                "returnHosts":["shop.example","127.0.0.1:8090","[::1]:8443"]}""");
        assertThat(taken.status()).as(taken.response().body()).isEqualTo(200);
        assertThat(this.stack.admin("GET", "/api/v1/queues/" + productId).json().get("returnHosts").toString())
            .isEqualTo("[\"shop.example\",\"127.0.0.1:8090\",\"[::1]:8443\"]");
    }

    @Test
    void withQueuegateNotAnsweringNginxFailsOpenOrClosedAsEachLocationSays() {
        long productId = ownProduct();
        Proxy nginx = this.edges.nginx("127.0.0.1:" + Stack.freePort(), waitingRoom(), productId, Stack.freePort());

        Reply closed = get(nginx.url("/index.html"));
        assertThat(closed.status()).isEqualTo(503);
        assertThat(closed.response().body()).contains("The waiting room is unavailable");
        Reply open = get(nginx.url("/open/index.html"));
        assertThat(open.status()).isEqualTo(200);
        assertThat(open.response().body()).contains(SHOP_CONTENT);
        // nginx writes the line once the answer is sent
        await().atMost(Duration.ofSeconds(5))
            .until(() -> nginx.log("queuegate-fail-open.log").lines().count() == 1);
    }

    @Test
    void withQueuegateNotAnsweringHaproxyFailsOpenOrClosedAsConfigured() {
        long productId = ownProduct();
        int origin = Stack.freePort();
        String nowhere = "127.0.0.1:" + Stack.freePort();
        this.edges.nginx(nowhere, waitingRoom(), productId, origin);
        // the keys come from the running stack; Queuegate's health is asked at an address where it does not run
        Proxy closed = this.edges.haproxy(nowhere, waitingRoom(), productId, origin, "closed");
        Proxy open = this.edges.haproxy(nowhere, waitingRoom(), productId, origin, "open");

        await().atMost(Duration.ofSeconds(10)).until(() -> get(closed.url("/index.html")).status() == 503);
        assertThat(get(closed.url("/index.html")).response().body()).contains("The waiting room is unavailable");
        await().atMost(Duration.ofSeconds(10)).until(() -> get(open.url("/index.html")).status() == 200);
        assertThat(get(open.url("/index.html")).response().body()).contains(SHOP_CONTENT);
        // counted: each visitor let through unchecked is a log line marked so
        await().atMost(Duration.ofSeconds(5)).until(() -> open.log("haproxy.log").contains("{fail-open}"));
        assertThat(closed.log("haproxy.log")).doesNotContain("{fail-open}");
    }
}
