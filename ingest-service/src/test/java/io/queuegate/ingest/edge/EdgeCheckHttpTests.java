package io.queuegate.ingest.edge;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionSigner;
import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;
import io.queuegate.ingest.IngestHttpTestSupport;
import io.queuegate.ingest.LineFixture;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The edge check over HTTP, as nginx's auth_request asks it, against the real Redis: what passes, what returns a
 * person from the line, what is sent to the line, and that nothing but an admission on the spot is ever written.
 */
class EdgeCheckHttpTests extends IngestHttpTestSupport {

    private static final String SHOP = "shop.test:8443";

    @Autowired
    private AdmissionKeys keys;

    @Autowired
    private TokenCodec tokens;

    @Autowired
    private TokenProperties tokenProperties;

    @Autowired
    private Leaving leaving;

    @Autowired
    private EdgeAdmissions admissions;

    private long visitorQueue(int maxActive, int admitPerSecond) {
        long product = newOpenQueue(maxActive, admitPerSecond, Identity.VISITOR);
        this.redis.opsForHash().put(QueueKeys.of(product).settings(), "returnHosts", SHOP + ",shop.test");
        return product;
    }

    private HttpResponse<String> check(long product, String uri, String cookie, String proto) {
        HttpRequest.Builder request = HttpRequest
            .newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + product + "/edge-check"))
            .header("X-Original-URI", uri)
            .header("X-Forwarded-Host", SHOP)
            .header("X-Forwarded-Proto", proto)
            .GET();
        if (cookie != null) {
            request.header("Cookie", "other=1; qg_admission_" + product + "=" + cookie);
        }
        return send(request);
    }

    private HttpResponse<String> check(long product, String uri, String cookie) {
        return check(product, uri, cookie, "https");
    }

    /** An admission of a user this test admitted itself (in entry:{p}), signed as ingest signs them. */
    private String admitted(long product, String userId, long expiresAt) {
        Token token = this.tokens.issue(product, userId);
        this.redis.opsForZSet().add(QueueKeys.of(product).entry(), userId, expiresAt);
        return new AdmissionSigner(this.keys, this.tokenProperties.issuer()).sign(token, expiresAt);
    }

    private long written(long product) {
        QueueKeys keys = QueueKeys.of(product);
        return this.redis.opsForZSet().size(keys.entry()) + this.redis.opsForZSet().size(keys.waiting())
                + (this.redis.hasKey(keys.audit()) ? this.redis.opsForStream().size(keys.audit()) : 0);
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    private static String cookieValue(String setCookie) {
        return setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    }

    @Test
    void aVisitorArrivingAtAnEmptyLineIsAdmittedOnTheSpotAndThenPassesWithTheCookie() {
        long product = visitorQueue(5, 100);

        HttpResponse<String> first = check(product, "/tickets/7", null);

        assertThat(first.statusCode()).isEqualTo(204);
        assertThat(header(first, "Queuegate-Action")).isEqualTo("pass");
        String setCookie = header(first, "Queuegate-Set-Cookie");
        assertThat(setCookie).startsWith("qg_admission_" + product + "=")
            .contains("; Path=/", "; HttpOnly", "; SameSite=Lax", "; Secure").containsPattern("Max-Age=(59|60);");
        String admission = cookieValue(setCookie);
        AdmissionVerifier.Admission verified = AdmissionVerifier.of(this.keys.published(), this.tokenProperties.issuer()).verify(admission, product)
            .orElseThrow();
        QueueKeys keys = QueueKeys.of(product);
        assertThat(this.redis.opsForZSet().score(keys.entry(), verified.userId())).isNotNull();
        assertThat(this.redis.opsForHash().get(keys.stats(), "admittedTotal")).isEqualTo("1");
        assertThat(this.redis.opsForHash().get(keys.stats(), "edgeAdmittedTotal")).isEqualTo("1");
        var audit = this.redis.opsForStream().range(keys.audit(), org.springframework.data.domain.Range.unbounded());
        assertThat(audit).singleElement().satisfies((record) -> assertThat(record.getValue())
            .containsEntry("type", "ADMITTED").containsEntry("users", verified.userId()).containsEntry("via", "edge"));

        HttpResponse<String> again = check(product, "/tickets/7", admission);
        assertThat(again.statusCode()).isEqualTo(204);
        assertThat(header(again, "Queuegate-Set-Cookie")).isNull();
        assertThat(this.redis.opsForZSet().size(keys.entry())).isEqualTo(1);
    }

    @Test
    void onceSomeoneWaitsANewcomerIsSentToTheLineWithTheUrlTheyAskedFor() {
        long product = visitorQueue(5, 100);
        LineFixture.append(this.redis, product, List.of("waiting-one"));
        long before = written(product);

        HttpResponse<String> response = check(product, "/tickets/7?seat=A1", null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(header(response, "Queuegate-Action")).isEqualTo("wait");
        String location = header(response, "Queuegate-Location");
        assertThat(location).startsWith("http://127.0.0.1:8080/queues/" + product + "?return=");
        assertThat(URLDecoder.decode(location.substring(location.indexOf("return=") + 7), StandardCharsets.UTF_8))
            .isEqualTo("https://" + SHOP + "/tickets/7?seat=A1");
        assertThat(written(product)).isEqualTo(before);
        assertThat(this.redis.opsForZSet().size(QueueKeys.of(product).entry())).isZero();
    }

    @Test
    void aLineWithoutRoomAdmitsNobodyAtTheEdge() {
        long product = visitorQueue(1, 100);
        admitted(product, "holder", System.currentTimeMillis() + 60_000);

        HttpResponse<String> response = check(product, "/", null);

        assertThat(header(response, "Queuegate-Action")).isEqualTo("wait");
        assertThat(this.redis.opsForZSet().size(QueueKeys.of(product).entry())).isEqualTo(1);
    }

    @Test
    void aQueueThatAsksForPassesAdmitsNobodyAtTheEdge() {
        long product = newOpenQueue(5, 100, Identity.TRUSTED);

        HttpResponse<String> response = check(product, "/", null);

        assertThat(header(response, "Queuegate-Action")).isEqualTo("wait");
        assertThat(this.redis.opsForZSet().size(QueueKeys.of(product).entry())).isZero();
    }

    @Test
    void backFromTheLineTheCookieIsSetAndTheAdmissionLeavesTheUrl() {
        long product = visitorQueue(5, 100);
        long expiresAt = System.currentTimeMillis() + 120_000;
        String admission = admitted(product, "back-from-line", expiresAt);

        HttpResponse<String> https = check(product, "/tickets/7?seat=A1&qg_admission=" + admission + "&x=2", null);

        assertThat(https.statusCode()).isEqualTo(401);
        assertThat(header(https, "Queuegate-Action")).isEqualTo("return");
        assertThat(header(https, "Queuegate-Location")).isEqualTo("/tickets/7?seat=A1&x=2");
        assertThat(header(https, "Queuegate-Set-Cookie")).isEqualTo("qg_admission_" + product + "=" + admission
                + "; Path=/; Max-Age=" + header(https, "Queuegate-Set-Cookie").replaceAll(".*Max-Age=(\\d+);.*", "$1")
                + "; HttpOnly; SameSite=Lax; Secure");
        assertThat(Long.parseLong(header(https, "Queuegate-Set-Cookie").replaceAll(".*Max-Age=(\\d+);.*", "$1")))
            .isBetween(115L, 120L);

        HttpResponse<String> http = check(product, "/?qg_admission=" + admission, null, "http");
        assertThat(header(http, "Queuegate-Location")).isEqualTo("/");
        assertThat(header(http, "Queuegate-Set-Cookie")).doesNotContain("Secure");

        // a path that begins with two slashes would name another host in a Location
        HttpResponse<String> evil = check(product, "//evil.example/x?qg_admission=" + admission, null);
        assertThat(header(evil, "Queuegate-Location")).isEqualTo("/evil.example/x");
    }

    @Test
    void expiredForgedTruncatedOtherProductsAndRevokedAdmissionsAreSentToTheLineAndWriteNothing() {
        long product = visitorQueue(5, 100);
        long other = visitorQueue(5, 100);
        String valid = admitted(product, "holder", System.currentTimeMillis() + 60_000);
        String expired = new AdmissionSigner(this.keys, this.tokenProperties.issuer()).sign(this.tokens.issue(product, "late"),
                System.currentTimeMillis() - 10_000);
        String othersAdmission = admitted(other, "elsewhere", System.currentTimeMillis() + 60_000);
        String[] parts = valid.split("\\.");
        String forged = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "AA." + parts[2];
        String truncated = valid.substring(0, valid.length() - 10);
        String oversized = valid + "A".repeat(5000);
        long before = written(product);

        for (String bad : List.of(expired, forged, truncated, othersAdmission, oversized, "x", "a.b.c")) {
            HttpResponse<String> asCookie = check(product, "/tickets", bad);
            assertThat(header(asCookie, "Queuegate-Action")).as(bad).isEqualTo("wait");
            HttpResponse<String> asReturn = check(product, "/tickets?qg_admission=" + bad, null);
            assertThat(header(asReturn, "Queuegate-Action")).as(bad).isEqualTo("wait");
            // a target too long to send anyone back to goes to the waiting page without one
            assertThat(header(asReturn, "Queuegate-Location")).endsWith(bad == oversized ? "/queues/" + product
                    : "?return=" + ReturnUrls.encode("https://" + SHOP + "/tickets"));
        }
        assertThat(written(product)).isEqualTo(before);
        assertThat(check(product, "/tickets", valid).statusCode()).isEqualTo(204);
    }

    @Test
    void anAdmissionThatPassedStopsPassingWhenItExpires() {
        long product = visitorQueue(5, 100);
        String admission = admitted(product, "short-lived", System.currentTimeMillis() + 1_500);
        assertThat(check(product, "/", admission).statusCode()).isEqualTo(204);
        assertThat(check(product, "/", admission).statusCode()).isEqualTo(204);

        await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(100))
            .until(() -> "wait".equals(header(check(product, "/", admission), "Queuegate-Action")));
    }

    @Test
    void aRevokeIsHonouredWithinASecond() {
        long product = visitorQueue(5, 100);
        String admission = admitted(product, "to-revoke", System.currentTimeMillis() + 60_000);
        assertThat(check(product, "/", admission).statusCode()).isEqualTo(204);

        long revokedAt = System.nanoTime();
        this.leaving.revoke(this.tokens.issue(product, "to-revoke"));

        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20))
            .until(() -> check(product, "/", admission).statusCode() == 401);
        assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(1));
        assertThat(check(product, "/?qg_admission=" + admission, null).headers().firstValue("Queuegate-Action"))
            .contains("wait");
        assertThat(this.redis.opsForZSet().score(QueueKeys.of(product).revoked(), "to-revoke")).isNotNull();
    }

    @Test
    void aHostTheQueueDoesNotReturnToGetsTheWaitingPageWithoutAReturnUrl() {
        long product = visitorQueue(5, 100);
        LineFixture.append(this.redis, product, List.of("waiting-one"));

        HttpResponse<String> response = send(HttpRequest
            .newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + product + "/edge-check"))
            .header("X-Original-URI", "/x")
            .header("X-Forwarded-Host", "evil.example"));

        assertThat(header(response, "Queuegate-Location")).isEqualTo("http://127.0.0.1:8080/queues/" + product);
    }

    @Test
    void aMalformedProductIsAProblemAndAQueueThatDoesNotExistSendsToItsPage() {
        HttpResponse<String> malformed = get(this.port, "/api/v1/queues/abc/edge-check");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("\"code\":\"invalid_request\"");

        long none = newProduct();
        HttpResponse<String> unknown = check(none, "/", null);
        assertThat(header(unknown, "Queuegate-Action")).isEqualTo("wait");
        assertThat(header(unknown, "Queuegate-Location")).isEqualTo("http://127.0.0.1:8080/queues/" + none);
        assertThat(this.redis.hasKey(QueueKeys.of(none).entry())).isFalse();
    }

    @Test
    void twoEdgesAtOnceNeverAdmitPastMaxActive() throws Exception {
        long product = visitorQueue(5, 1000);
        ExecutorService edges = Executors.newFixedThreadPool(16);
        try {
            List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                calls.add(() -> check(product, "/", null));
            }
            List<String> cookies = new ArrayList<>();
            for (Future<HttpResponse<String>> answer : edges.invokeAll(calls)) {
                header(answer.get(), "Queuegate-Set-Cookie");
                if (answer.get().statusCode() == 204) {
                    cookies.add(header(answer.get(), "Queuegate-Set-Cookie"));
                }
            }
            assertThat(cookies).hasSize(5).doesNotHaveDuplicates();
            assertThat(this.redis.opsForZSet().size(QueueKeys.of(product).entry())).isEqualTo(5);
            assertThat(this.redis.opsForHash().get(QueueKeys.of(product).stats(), "admittedTotal")).isEqualTo("5");
        }
        finally {
            edges.shutdownNow();
        }
    }

    @Test
    void theScriptAdmitsWithinTheRateAndOnlyWhileNobodyWaits() {
        long product = visitorQueue(10, 2);
        long now = 1_800_000_000_000L;

        assertThat(this.admissions.admit(product, "u1", now).admitted()).isTrue();
        assertThat(this.admissions.admit(product, "u2", now).admitted()).isTrue();
        assertThat(this.admissions.admit(product, "u3", now).reason()).isEqualTo("RATE");
        EdgeAdmissions.Outcome later = this.admissions.admit(product, "u3", now + 500);
        assertThat(later.admitted()).isTrue();
        assertThat(later.expiresAt()).isEqualTo(now + 500 + 60_000);

        LineFixture.append(this.redis, product, List.of("w1"));
        assertThat(this.admissions.admit(product, "u4", now + 5_000).reason()).isEqualTo("LINE");
        this.redis.opsForHash().put(QueueKeys.of(product).settings(), "open", "false");
        assertThat(this.admissions.admit(product, "u4", now + 5_000).reason()).isEqualTo("CLOSED");
        assertThat(this.admissions.admit(newProduct(), "u4", now).reason()).isEqualTo("UNKNOWN");
        assertThat(this.redis.opsForZSet().range(QueueKeys.of(product).entry(), 0, -1))
            .containsExactlyInAnyOrder("u1", "u2", "u3");
    }

    @Test
    void theWaitingPageReturnsPeopleOnlyToTheQueuesHosts() {
        long product = visitorQueue(5, 100);
        String base = "/api/v1/queues/" + product + "/return-url?url=";

        HttpResponse<String> ok = get(this.port, base + ReturnUrls.encode("https://" + SHOP + "/t?a=1&qg_admission=old#f"));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("{\"url\":\"https://" + SHOP + "/t?a=1#f\"}");
        assertThat(get(this.port, base + ReturnUrls.encode("http://shop.test/")).statusCode()).isEqualTo(200);

        for (String refused : List.of("https://evil.example/", "//evil.example/x", "javascript:alert(1)",
                "https://shop.test@evil.example/", "https://" + SHOP + "\\@evil.example/", "/relative",
                "https://shop.test:444/", "ftp://shop.test/", "https://evil.example/?x=https://shop.test/",
                "https://" + SHOP + "/" + "a".repeat(3000), "")) {
            HttpResponse<String> answer = get(this.port, base + ReturnUrls.encode(refused));
            assertThat(answer.statusCode()).as(refused).isEqualTo(400);
            assertThat(answer.body()).as(refused).contains("\"code\":\"return_url_refused\"");
        }
        assertThat(get(this.port, "/api/v1/queues/" + newProduct() + "/return-url?url=x").statusCode()).isEqualTo(404);
    }
}
