package io.queuegate.ingest.enter;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.token.Lane;
import io.queuegate.web.egress.EgressProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pass keys a shop publishes, fetched over real HTTP from a server standing in for the shop's. */
class PublishedPassKeysTests {

    private static final long PRODUCT = 7;

    private final ECKey shop = key("shop-2026");

    private final AtomicReference<String> published = new AtomicReference<>();

    private final AtomicInteger status = new AtomicInteger(200);

    private final AtomicInteger fetches = new AtomicInteger();

    private final AtomicInteger redirects = new AtomicInteger();

    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

    private HttpServer server;

    /** The shop of these tests listens on http://127.0.0.1. */
    private final PublishedPassKeys keys = new PublishedPassKeys(new EgressProperties(true, true));

    @BeforeEach
    void startTheShop() throws IOException {
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        this.server.setExecutor(this.handlers);
        this.server.createContext("/moved", (exchange) -> {
            this.redirects.incrementAndGet();
            exchange.getResponseHeaders().set("Location", "/.well-known/jwks.json");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        this.server.createContext("/trickle", (exchange) -> {
            this.fetches.incrementAndGet();
            byte[] body = this.published.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                for (byte b : body) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(50);
                }
            }
            catch (IOException | InterruptedException ex) {
                // the fetch gave up
            }
        });
        this.server.createContext("/.well-known/jwks.json", (exchange) -> {
            this.fetches.incrementAndGet();
            byte[] body = this.published.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(this.status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        this.server.start();
        this.published.set(new JWKSet(this.shop.toPublicJWK()).toString());
    }

    @AfterEach
    void stopTheShop() {
        this.keys.close();
        this.server.stop(0);
        this.handlers.shutdownNow();
    }

    @Test
    void passesAreVerifiedByTheKeysTheShopPublishesFetchedOnce() throws Exception {
        PassVerifier verifier = this.keys.verifier(url()).orElseThrow();

        assertThat(verifier.verify(pass(this.shop, "alice"), PRODUCT, "alice")).contains(Lane.GENERAL);
        assertThat(verifier.verify(pass(key("shop-2026"), "alice"), PRODUCT, "alice")).as("another key").isEmpty();
        assertThat(this.keys.verifier(url())).containsSame(verifier);
        assertThat(this.fetches).hasValue(1);
    }

    @Test
    void keysThatCannotBeReadVerifyNothingAndAreAskedForAgain() throws Exception {
        this.status.set(500);
        assertThat(this.keys.verifier(url())).as("the shop's server fails").isEmpty();

        this.status.set(200);
        this.published.set(new JWKSet(new RSAKeyGenerator(2048).generate().toPublicJWK()).toString());
        assertThat(this.keys.verifier(url())).as("no P-256 key in the set").isEmpty();

        this.published.set("not json");
        assertThat(this.keys.verifier(url())).as("not a key set").isEmpty();
        assertThat(this.keys.verifier("http://127.0.0.1:1/jwks.json")).as("nobody answers").isEmpty();

        this.published.set(new JWKSet(this.shop.toPublicJWK()).toString());
        assertThat(this.keys.verifier(url()).orElseThrow().verify(pass(this.shop, "alice"), PRODUCT, "alice"))
            .as("a failure is not remembered").contains(Lane.GENERAL);
        assertThat(this.fetches).hasValue(4);
    }

    @Test
    void asDeployedKeysAtAnAddressInsideOrInPlainHttpAreNotFetched() {
        try (PublishedPassKeys deployed = new PublishedPassKeys(new EgressProperties(false, false));
                PublishedPassKeys overHttp = new PublishedPassKeys(new EgressProperties(false, true));
                PublishedPassKeys inside = new PublishedPassKeys(new EgressProperties(true, false))) {
            assertThat(deployed.verifier(url())).isEmpty();
            assertThat(overHttp.verifier(url())).as("127.0.0.1").isEmpty();
            assertThat(overHttp.verifier(url("localhost", "/.well-known/jwks.json"))).as("a name for 127.0.0.1")
                .isEmpty();
            assertThat(overHttp.verifier(url("[::ffff:127.0.0.1]", "/.well-known/jwks.json"))).isEmpty();
            assertThat(inside.verifier(url())).as("plain http").isEmpty();
        }
        assertThat(this.fetches).hasValue(0);

        assertThat(this.keys.verifier(url("localhost", "/.well-known/jwks.json"))).as("allowed").isPresent();
        assertThat(this.fetches).hasValue(1);
    }

    @Test
    void aRedirectIsNotFollowed() {
        assertThat(this.keys.verifier(url("127.0.0.1", "/moved"))).isEmpty();
        assertThat(this.redirects).hasValue(1);
        assertThat(this.fetches).hasValue(0);
    }

    @Test
    void aKeySetThatTricklesIsCutOffAtTheDeadline() {
        long start = System.nanoTime();
        assertThat(this.keys.verifier(url("127.0.0.1", "/trickle"))).isEmpty();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(this.fetches).hasValue(1);
        assertThat(took).as("the 2 s deadline, with room for a slow machine")
            .isGreaterThanOrEqualTo(PublishedPassKeys.TIMEOUT.minusMillis(50))
            .isLessThan(PublishedPassKeys.TIMEOUT.plusSeconds(3));
    }

    @Test
    void aKeySetLargerThan64KbIsRefused() {
        String keySet = new JWKSet(this.shop.toPublicJWK()).toString();
        this.published.set(keySet.substring(0, keySet.length() - 1) + " ".repeat(PublishedPassKeys.SIZE_LIMIT) + "}");
        assertThat(this.keys.verifier(url())).isEmpty();

        this.published.set(keySet.substring(0, keySet.length() - 1) + " ".repeat(60 * 1024) + "}");
        assertThat(this.keys.verifier(url())).as("under the limit").isPresent();
        assertThat(this.fetches).hasValue(2);
    }

    private String url() {
        return url("127.0.0.1", "/.well-known/jwks.json");
    }

    private String url(String host, String path) {
        return "http://" + host + ":" + this.server.getAddress().getPort() + path;
    }

    private static ECKey key(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        }
        catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String pass(ECKey key, String userId) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder().subject(userId).claim(PassVerifier.PRODUCT, PRODUCT)
                    .expirationTime(new Date(System.currentTimeMillis() + 60_000)).build());
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }
}
