package io.queuegate.system;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Passes a shop's backend signs: a line of identity "pass" (or the older invite-only one) lets in only the users it
 * invited, each as the subject of their own pass for this line, and a priority pass puts its holder in the lane
 * admitted before everyone of the general line, earlier entrants included. Through ingest, Kafka, the writer, the
 * admission worker and the booking service.
 */
class PassSystemTests extends StackTests {

    private final long productId = ownProduct();

    private final ECKey shop = key("shop-2026");

    @Test
    void anInviteOnlyLineLetsInOnlyTheInvitedEachWithTheirOwnPass() throws Exception {
        assertThat(configure(Map.of("inviteOnly", true)).status()).as("invite-only without keys").isEqualTo(400);
        assertThat(configure(Map.of("passKeys", List.of(this.shop.toJSONObject()))).status())
            .as("a private key").isEqualTo(400);
        assertThat(configure(Map.of("inviteOnly", true, "passKeys", List.of(this.shop.toPublicJWK().toJSONObject())))
            .status()).isEqualTo(200);

        assertThat(enter("guest", null).text("code")).isEqualTo("pass_required");
        assertRefused(enter("guest", pass(this.shop, "guest", this.productId, -120, null)), "expired");
        assertRefused(enter("guest", pass(key("shop-2026"), "guest", this.productId, 60, null)), "another key");
        assertRefused(enter("guest", pass(this.shop, "guest", this.productId + 1, 60, null)), "another line");
        assertRefused(enter("mallory", pass(this.shop, "guest", this.productId, 60, null)), "another user");
        assertRefused(enter("guest", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJndWVzdCJ9."), "alg none");

        Reply invited = enter("guest", pass(this.shop, "guest", this.productId, 60, null));
        assertThat(invited.status()).isEqualTo(202);
        assertThat(invited.text("userId")).isEqualTo("guest");
        String token = invited.text("token");
        awaitStatus(this.productId, token, "AVAILABLE");
        // the pass alone names its holder: the same place
        Reply again = enter(null, pass(this.shop, "guest", this.productId, 60, null));
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.text("token")).isEqualTo(token);
        assertThat(again.text("userId")).isEqualTo("guest");
        // nobody refused was written: the line took the invited user only
        Reply queue = this.stack.admin("GET", "/api/v1/queues/" + this.productId);
        assertThat(queue.json().get("admittedTotal").asLong()).isEqualTo(1);
        assertThat(queue.json().get("waiting").asLong()).isZero();
        assertThat(queue.json().get("inviteOnly").asBoolean()).isTrue();
        assertThat(queue.json().get("identity").asString()).as("invite-only is identity pass").isEqualTo("pass");
        assertThat(queue.json().get("passKeys").get(0).has("d")).isFalse();
    }

    @Test
    void aLineVerifiesPassesByTheKeysTheShopPublishes() throws Exception {
        HttpServer shopServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] published = new JWKSet(this.shop.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        shopServer.createContext("/.well-known/jwks.json", (exchange) -> {
            exchange.sendResponseHeaders(200, published.length);
            exchange.getResponseBody().write(published);
            exchange.close();
        });
        shopServer.start();
        try {
            String jwks = "http://127.0.0.1:" + shopServer.getAddress().getPort() + "/.well-known/jwks.json";
            assertThat(configure(Map.of("passJwksUri", "file:///etc/passwd")).status()).as("not http").isEqualTo(400);
            assertThat(configure(Map.of("passJwksUri", jwks, "passKeys",
                    List.of(this.shop.toPublicJWK().toJSONObject()))).status()).as("both").isEqualTo(400);
            assertThat(configure(Map.of("identity", "pass")).status()).as("identity pass without keys")
                .isEqualTo(400);
            assertThat(configure(Map.of("identity", "pass", "passJwksUri", jwks)).status()).isEqualTo(200);

            assertThat(enter(null, null).text("code")).isEqualTo("pass_required");
            assertRefused(enter(null, pass(key("shop-2026"), "guest", this.productId, 60, null)), "another key");
            Reply invited = enter(null, pass(this.shop, "guest", this.productId, 60, null));
            assertThat(invited.status()).isEqualTo(202);
            assertThat(invited.text("userId")).isEqualTo("guest");
            awaitStatus(this.productId, invited.text("token"), "AVAILABLE");
            Reply queue = this.stack.admin("GET", "/api/v1/queues/" + this.productId);
            assertThat(queue.json().get("passJwksUri").asString()).isEqualTo(jwks);
            assertThat(queue.json().get("identity").asString()).isEqualTo("pass");
            assertThat(queue.json().get("admittedTotal").asLong()).isEqualTo(1);
        }
        finally {
            shopServer.stop(0);
        }
    }

    @Test
    void aPriorityPassIsAdmittedBeforeEarlierGeneralEntrants() throws Exception {
        // one place at a time, held until booked: the order of admissions is the order of the line. A line of
        // visitors, who enter with nothing; the pass's holders enter with the pass, as its subject
        assertThat(configure(Map.of("identity", "visitor", "passKeys",
                List.of(this.shop.toPublicJWK().toJSONObject()))).status()).isEqualTo(200);
        this.stack.setStock(this.productId, 100);
        String first = entered(null, null);
        awaitStatus(this.productId, first, "AVAILABLE");
        String second = entered(null, null);
        String third = entered(null, null);
        await().atMost(Stack.ANSWER_WITHIN)
            .until(() -> "2".equals(this.stack.status(this.productId, third).text("position")));
        String vip = entered(null, pass(this.shop, "vip-1", this.productId, 60, "priority"));
        String vip2 = entered(null, pass(this.shop, "vip-2", this.productId, 60, "priority"));
        assertThat(enter(null, pass(this.shop, "general-4", this.productId, 60, "vip")).text("code"))
            .isEqualTo("pass_invalid");

        await().atMost(Stack.ANSWER_WITHIN)
            .until(() -> "2".equals(this.stack.status(this.productId, vip2).text("position")));
        assertThat(this.stack.status(this.productId, vip).text("position")).isEqualTo("1");
        assertThat(this.stack.status(this.productId, second).text("position")).isEqualTo("3");

        List<String> admitted = new java.util.ArrayList<>();
        for (String next : List.of(first, vip, vip2, second)) {
            awaitStatus(this.productId, next, "AVAILABLE");
            admitted.add(next);
            assertThat(statusOf(this.productId, third)).isEqualTo("WAITING");
            assertThat(this.stack.book(this.productId, next).status()).isEqualTo(201);
        }
        assertThat(admitted).containsExactly(first, vip, vip2, second);
    }

    private Reply configure(Map<String, Object> passSettings) {
        Map<String, Object> settings = new LinkedHashMap<>(Map.of("maxActive", 1, "admitPerSecond", 100,
                "entryTtlSeconds", 600, "open", true));
        settings.putAll(passSettings);
        return this.stack.admin("PUT", "/api/v1/queues/" + this.productId,
                JsonMapper.shared().writeValueAsString(settings));
    }

    /** An enter naming the user and carrying the pass, each when not null; without the shop's enter key. */
    private Reply enter(String userId, String pass) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (userId != null) {
            body.put("userId", userId);
        }
        if (pass != null) {
            body.put("pass", pass);
        }
        return this.stack.send("POST", Stack.url(this.stack.ingest, "/api/v1/queues/" + this.productId + "/entries"),
                JsonMapper.shared().writeValueAsString(body), "application/json", Map.of());
    }

    private String entered(String userId, String pass) {
        Reply reply = enter(userId, pass);
        assertThat(reply.status()).as(reply.response().body()).isEqualTo(202);
        return reply.text("token");
    }

    private static void assertRefused(Reply reply, String why) {
        assertThat(reply.status()).as(why).isEqualTo(403);
        assertThat(reply.text("code")).as(why).isEqualTo("pass_invalid");
    }

    private static ECKey key(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        }
        catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String pass(ECKey key, String userId, long productId, int expiresInSeconds, String lane)
            throws JOSEException {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(userId).claim("product", productId)
            .expirationTime(new Date(System.currentTimeMillis() + expiresInSeconds * 1000L));
        if (lane != null) {
            claims.claim("lane", lane);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(),
                claims.build());
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }
}
