package io.queuegate.core.pass;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.token.Lane;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PassVerifierTests {

    private static final long PRODUCT = 42;

    private final ECKey shop = key("shop-1");

    private final PassVerifier verifier = PassVerifier.of(List.of(this.shop.toPublicJWK().toJSONObject()));

    @Test
    void aPassOfTheShopForThisUserAndLineGrantsItsLane() throws Exception {
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 60, null), PRODUCT, "alice"))
            .contains(Lane.GENERAL);
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 60, "priority"), PRODUCT, "alice"))
            .contains(Lane.PRIORITY);
    }

    @Test
    void everyOtherPassIsRefused() throws Exception {
        ECKey stranger = key("shop-1");
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, -120, null), PRODUCT, "alice"))
            .as("expired").isEmpty();
        assertThat(this.verifier.verify(pass(stranger, "alice", PRODUCT, 60, null), PRODUCT, "alice"))
            .as("signed by another key under the same kid").isEmpty();
        assertThat(this.verifier.verify(pass(key("shop-9"), "alice", PRODUCT, 60, null), PRODUCT, "alice"))
            .as("a kid not in the set").isEmpty();
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT + 1, 60, null), PRODUCT, "alice"))
            .as("another line's").isEmpty();
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 60, null), PRODUCT, "bob"))
            .as("another user's").isEmpty();
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 60, "vip"), PRODUCT, "alice"))
            .as("a lane that does not exist").isEmpty();
        assertThat(this.verifier.verify(withoutExpiry(), PRODUCT, "alice")).as("no exp").isEmpty();
    }

    /**
     * A pass is good from its {@code nbf} (a minute of skew) until its {@code exp}, and only when that is no further
     * off than the deployment's longest pass lifetime (a day unless set), a minute of skew again.
     */
    @Test
    void aPassIsTakenOnlyWithinItsValidityAndTheLongestLifetime() throws Exception {
        int day = 24 * 3600;
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, day, null), PRODUCT, "alice"))
            .as("a day").contains(Lane.GENERAL);
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, day + 300, null), PRODUCT, "alice"))
            .as("a day and five minutes").isEmpty();
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 365 * day, null), PRODUCT, "alice"))
            .as("a year").isEmpty();

        PassVerifier hourly = this.verifier.withMaxLifetime(java.time.Duration.ofHours(1));
        assertThat(hourly.verify(pass(this.shop, "alice", PRODUCT, 3000, null), PRODUCT, "alice")).isPresent();
        assertThat(hourly.verify(pass(this.shop, "alice", PRODUCT, 7200, null), PRODUCT, "alice")).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> this.verifier.withMaxLifetime(java.time.Duration.ZERO));

        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 600, null, 300), PRODUCT, "alice"))
            .as("not valid for five more minutes").isEmpty();
        assertThat(this.verifier.verify(pass(this.shop, "alice", PRODUCT, 600, null, -60), PRODUCT, "alice"))
            .as("valid since a minute").isPresent();
    }

    /** An admission of the queue is not a pass, even where the shop's keys are the queue's. */
    @Test
    void aJwsTypedAsSomethingElseIsNotAPass() throws Exception {
        SignedJWT admission = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("shop-1")
            .type(new com.nimbusds.jose.JOSEObjectType("queuegate-admission+jwt")).build(),
                claims("alice", PRODUCT, 60, null));
        admission.sign(new ECDSASigner(this.shop));
        assertThat(this.verifier.verify(admission.serialize(), PRODUCT, "alice")).isEmpty();
    }

    @Test
    void hostilePassesAreRefusedWithoutAnException() throws Exception {
        String good = pass(this.shop, "alice", PRODUCT, 60, "priority");
        String[] parts = good.split("\\.");
        String none = encode("{\"alg\":\"none\"}") + "." + parts[1] + ".";
        // the public key's own bytes used as an HMAC secret: the classic key confusion
        SignedJWT confused = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("shop-1").build(),
                claims("alice", PRODUCT, 60, "priority"));
        confused.sign(new MACSigner(this.shop.toPublicJWK().toJSONString().repeat(2).getBytes(StandardCharsets.UTF_8)));

        for (String hostile : List.of(none, confused.serialize(), parts[0] + "." + parts[1] + ".AAAA", "a.b.c",
                "not a pass", "...", parts[0] + ".%%%." + parts[2], "x".repeat(PassVerifier.MAX_PASS_LENGTH + 1), "")) {
            assertThat(this.verifier.verify(hostile, PRODUCT, "alice")).as(hostile).isEmpty();
        }
        assertThat(this.verifier.verify(null, PRODUCT, "alice")).isEmpty();
    }

    @Test
    void onlyPublicP256SigningKeysAreTaken() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of(this.shop.toJSONObject())))
            .withMessageContaining("public");
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of(
                new RSAKeyGenerator(2048).generate().toPublicJWK().toJSONObject())))
            .withMessageContaining("P-256");
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of(
                new ECKeyGenerator(Curve.P_384).generate().toPublicJWK().toJSONObject())));
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of(Map.of("kty", "EC"))))
            .withMessageContaining("not a JWK");
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of()));
        Map<String, Object> offTheCurve = new java.util.HashMap<>(this.shop.toPublicJWK().toJSONObject());
        offTheCurve.put("y", offTheCurve.get("x"));
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.of(List.of(offTheCurve)));
    }

    @Test
    void aPublishedKeySetLendsItsP256SigningKeysAndLeavesTheRestOut() throws Exception {
        ECKey encryption = new ECKeyGenerator(Curve.P_256).keyID("enc").keyUse(KeyUse.ENCRYPTION).generate();
        JWKSet published = new JWKSet(List.of(new RSAKeyGenerator(2048).keyID("rsa").generate().toPublicJWK(),
                encryption.toPublicJWK(), this.shop.toPublicJWK()));

        PassVerifier fromShop = PassVerifier.ofPublished(published);

        assertThat(fromShop.verify(pass(this.shop, "alice", PRODUCT, 60, null), PRODUCT, "alice"))
            .contains(Lane.GENERAL);
        assertThat(fromShop.verify(pass(encryption, "alice", PRODUCT, 60, null), PRODUCT, "alice"))
            .as("signed by a key published for encryption").isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.ofPublished(new JWKSet(
                new RSAKeyGenerator(2048).generate().toPublicJWK()))).withMessageContaining("P-256");
    }

    @Test
    void aKeySetIsNamedByAnAbsoluteHttpUrl() {
        assertThat(PassVerifier.isKeySetUrl("https://shop.example/.well-known/jwks.json")).isTrue();
        assertThat(PassVerifier.isKeySetUrl("http://127.0.0.1:8090/keys")).isTrue();
        for (String refused : List.of("ftp://shop.example/keys", "file:///etc/passwd", "/jwks.json", "https://",
                "not a url", "https://shop example/keys", "")) {
            assertThat(PassVerifier.isKeySetUrl(refused)).as(refused).isFalse();
        }
    }

    static ECKey key(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        }
        catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static String pass(ECKey key, String userId, long productId, int expiresInSeconds, String lane)
            throws JOSEException {
        return pass(key, userId, productId, expiresInSeconds, lane, null);
    }

    /** @param validInSeconds the {@code nbf}, from now; null for none */
    static String pass(ECKey key, String userId, long productId, int expiresInSeconds, String lane,
            Integer validInSeconds) throws JOSEException {
        JWTClaimsSet claims = claims(userId, productId, expiresInSeconds, lane);
        if (validInSeconds != null) {
            claims = new JWTClaimsSet.Builder(claims)
                .notBeforeTime(new Date(System.currentTimeMillis() + validInSeconds * 1000L)).build();
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(),
                claims);
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }

    private static JWTClaimsSet claims(String userId, long productId, int expiresInSeconds, String lane) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(userId)
            .claim(PassVerifier.PRODUCT, productId)
            .expirationTime(new Date(System.currentTimeMillis() + expiresInSeconds * 1000L));
        return (lane == null ? claims : claims.claim(PassVerifier.LANE, lane)).build();
    }

    private String withoutExpiry() throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("shop-1").build(),
                new JWTClaimsSet.Builder().subject("alice").claim(PassVerifier.PRODUCT, PRODUCT).build());
        jwt.sign(new ECDSASigner(this.shop));
        return jwt.serialize();
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
