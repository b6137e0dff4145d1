package io.queuegate.core.admission;

import java.util.Date;
import java.util.List;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.admission.AdmissionVerifier.Admission;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AdmissionKeysTests {

    private static final String SECRET = "admission-keys-tests-secret";

    private static final Token TOKEN = new TokenCodec(SECRET).issue(42, "alice");

    private static final long IN_A_MINUTE = System.currentTimeMillis() + 60_000;

    private static final String ISSUER = "https://queue.example.com";

    @Test
    void theDerivedKeyIsTheSameForOneSecretOnEveryInstanceAndAnotherForAnother() {
        AdmissionKeys one = AdmissionKeys.of(null, SECRET);
        AdmissionKeys again = AdmissionKeys.of("", SECRET);
        AdmissionKeys other = AdmissionKeys.of(null, "another-deployments-secret");
        assertThat(again.published().toJSONObject()).isEqualTo(one.published().toJSONObject());
        assertThat(other.signing().getKeyID()).isNotEqualTo(one.signing().getKeyID());
        // what is published has no private part
        assertThat(one.published().getKeys()).singleElement()
            .satisfies((key) -> assertThat(key.isPrivate()).isFalse());
    }

    @Test
    void anAdmissionIsVerifiedWithThePublishedKeysAloneForItsProductUntilItExpires() {
        AdmissionKeys keys = AdmissionKeys.of(null, SECRET);
        String admission = new AdmissionSigner(keys, ISSUER).sign(TOKEN, IN_A_MINUTE);
        AdmissionVerifier verifier = AdmissionVerifier.of(keys.published(), ISSUER);
        assertThat(verifier.verify(admission, 42)).hasValueSatisfying((Admission a) -> {
            assertThat(a.userId()).isEqualTo("alice");
            assertThat(a.token()).isEqualTo(TOKEN.value());
            assertThat(a.expiresAt()).isEqualTo(IN_A_MINUTE / 1000 * 1000);
        });
        assertThat(verifier.verify(admission, 43)).isEmpty();
        String expired = new AdmissionSigner(keys, ISSUER).sign(TOKEN, System.currentTimeMillis() - 10_000);
        assertThat(verifier.verify(expired, 42)).isEmpty();
        assertThat(AdmissionVerifier.of(AdmissionKeys.of(null, "another-deployments-secret").published(), ISSUER)
            .verify(admission, 42)).isEmpty();
    }

    @Test
    void aRotationKeepsTheAdmissionsOfThePreviousKeyValidUntilItIsDropped() throws Exception {
        ECKey old = new ECKeyGenerator(Curve.P_256).keyID("2026-11").generate();
        ECKey current = new ECKeyGenerator(Curve.P_256).keyID("2026-12").generate();
        String signedByOld = new AdmissionSigner(AdmissionKeys.of(new JWKSet(old).toString(false), SECRET), ISSUER)
            .sign(TOKEN, IN_A_MINUTE);
        AdmissionKeys rotated = AdmissionKeys.of(new JWKSet(List.of(current, old)).toString(false), SECRET);
        assertThat(rotated.signing().getKeyID()).isEqualTo("2026-12");
        assertThat(rotated.published().getKeys()).extracting((key) -> key.getKeyID()).containsExactly("2026-12",
                "2026-11");
        assertThat(AdmissionVerifier.of(rotated.published(), ISSUER).verify(signedByOld, 42)).isPresent();
        String signedByCurrent = new AdmissionSigner(rotated, ISSUER).sign(TOKEN, IN_A_MINUTE);
        assertThat(SignedJWT.parse(signedByCurrent).getHeader().getKeyID()).isEqualTo("2026-12");
        AdmissionKeys dropped = AdmissionKeys.of(new JWKSet(current).toString(false), SECRET);
        assertThat(AdmissionVerifier.of(dropped.published(), ISSUER).verify(signedByOld, 42)).isEmpty();
        assertThat(AdmissionVerifier.of(dropped.published(), ISSUER).verify(signedByCurrent, 42)).isPresent();
    }

    @Test
    void anAdmissionSaysWhatItIsAndWhoIssuedIt() throws Exception {
        AdmissionKeys keys = AdmissionKeys.of(null, SECRET);
        SignedJWT admission = SignedJWT.parse(new AdmissionSigner(keys, ISSUER).sign(TOKEN, IN_A_MINUTE));
        assertThat(admission.getHeader().getType()).hasToString("queuegate-admission+jwt");
        assertThat(admission.getJWTClaimsSet().getIssuer()).isEqualTo(ISSUER);
    }

    /**
     * Anything else the same keys signed is not an admission, whatever its claims: a pass (a shop that signs its
     * passes with the queue's keys), a JWS without the admission's type, one of another deployment that shares the
     * keys, or one that names no issuer.
     */
    @Test
    void aJwsOfTheSameKeysThatIsNotAnAdmissionOfThisIssuerIsRefused() throws Exception {
        AdmissionKeys keys = AdmissionKeys.of(null, SECRET);
        AdmissionVerifier verifier = AdmissionVerifier.of(keys.published(), ISSUER);
        JWTClaimsSet.Builder admissionClaims = new JWTClaimsSet.Builder().subject("alice").claim("product", 42L)
            .expirationTime(new Date(IN_A_MINUTE)).jwtID(TOKEN.value());
        JWTClaimsSet pass = new JWTClaimsSet.Builder().subject("alice").claim("product", 42L)
            .claim("lane", "priority").expirationTime(new Date(IN_A_MINUTE)).build();

        assertThat(verifier.verify(signed(keys, JOSEObjectType.JWT, pass), 42)).as("a pass").isEmpty();
        assertThat(verifier.verify(signed(keys, null, pass), 42)).as("a pass without typ").isEmpty();
        assertThat(verifier.verify(signed(keys, JOSEObjectType.JWT, admissionClaims.issuer(ISSUER).build()), 42))
            .as("an admission's claims, typ JWT").isEmpty();
        assertThat(verifier.verify(signed(keys, null, admissionClaims.issuer(ISSUER).build()), 42))
            .as("an admission's claims, no typ").isEmpty();
        assertThat(verifier.verify(signed(keys, AdmissionSigner.TYPE, admissionClaims.issuer(null).build()), 42))
            .as("no issuer").isEmpty();
        assertThat(verifier.verify(new AdmissionSigner(keys, "https://staging.example.com").sign(TOKEN, IN_A_MINUTE),
                42)).as("another deployment's, same keys").isEmpty();
        assertThat(verifier.verify(signed(keys, AdmissionSigner.TYPE, admissionClaims.issuer(ISSUER).build()), 42))
            .as("the admission itself").isPresent();
        assertThatIllegalArgumentException().isThrownBy(() -> AdmissionVerifier.of(keys.published(), " "));
    }

    private static String signed(AdmissionKeys keys, JOSEObjectType type, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(type)
            .keyID(keys.signing().getKeyID()).build(), claims);
        jwt.sign(new ECDSASigner(keys.signing()));
        return jwt.serialize();
    }

    @Test
    void hostileAdmissionsAreRefused() throws Exception {
        AdmissionKeys keys = AdmissionKeys.of(null, SECRET);
        AdmissionVerifier verifier = AdmissionVerifier.of(keys.published(), ISSUER);
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("mallory").claim("product", 42L)
            .expirationTime(new Date(IN_A_MINUTE)).jwtID(TOKEN.value()).build();
        // alg none
        assertThat(verifier.verify(new PlainJWT(new PlainHeader(), claims).serialize(), 42)).isEmpty();
        // HMAC with the public key as its secret (the confusion attack)
        SignedJWT confused = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256)
            .keyID(keys.signing().getKeyID()).build(), claims);
        byte[] publicKey = keys.signing().toPublicJWK().toJSONString().getBytes();
        confused.sign(new MACSigner(java.util.Arrays.copyOf(publicKey, Math.max(32, publicKey.length))));
        assertThat(verifier.verify(confused.serialize(), 42)).isEmpty();
        // a kid that is not in the set, signed by a key of the attacker's
        ECKey attacker = new ECKeyGenerator(Curve.P_256).keyID("attacker").generate();
        SignedJWT foreign = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("attacker")
            .type(JOSEObjectType.JWT).build(), claims);
        foreign.sign(new ECDSASigner(attacker));
        assertThat(verifier.verify(foreign.serialize(), 42)).isEmpty();
        // the attacker's key under our kid
        SignedJWT impostor = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256)
            .keyID(keys.signing().getKeyID()).type(JOSEObjectType.JWT).build(), claims);
        impostor.sign(new ECDSASigner(attacker));
        assertThat(verifier.verify(impostor.serialize(), 42)).isEmpty();
        // a genuine one with its payload changed
        String genuine = new AdmissionSigner(keys, ISSUER).sign(TOKEN, IN_A_MINUTE);
        String[] parts = genuine.split("\\.");
        String changed = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
            .encodeToString(claims.toString().getBytes()) + "." + parts[2];
        assertThat(verifier.verify(changed, 42)).isEmpty();
        for (String junk : new String[] {null, "", ".", "..", "a.b.c", "x".repeat(10_000), genuine + "x"}) {
            assertThat(verifier.verify(junk, 42)).as(String.valueOf(junk).substring(0, Math.min(20,
                    String.valueOf(junk).length()))).isEmpty();
        }
    }

    @Test
    void configuredKeysMustBePrivateP256KeysWithAnId() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> AdmissionKeys.of("not json", SECRET));
        assertThatIllegalArgumentException().isThrownBy(() -> AdmissionKeys.of("{\"keys\":[]}", SECRET));
        ECKey publicOnly = new ECKeyGenerator(Curve.P_256).keyID("k").generate().toPublicJWK();
        assertThatIllegalArgumentException().isThrownBy(() -> AdmissionKeys.of(new JWKSet(publicOnly).toString(false),
                SECRET));
        ECKey noId = new ECKeyGenerator(Curve.P_256).generate();
        assertThatIllegalArgumentException().isThrownBy(() -> AdmissionKeys.of(new JWKSet(noId).toString(false),
                SECRET));
    }
}
