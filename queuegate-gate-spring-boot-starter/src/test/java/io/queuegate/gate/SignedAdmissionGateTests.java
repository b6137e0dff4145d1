package io.queuegate.gate;

import java.util.Date;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionSigner;
import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.testing.TestRedis;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ProblemCodes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A shop's gate that does not hold the queue's secret: it verifies admissions with the queue's published keys alone,
 * and still consumes the entry itself exactly once.
 */
class SignedAdmissionGateTests extends GateRedisTestSupport {

    private static final String ISSUER = AdmissionSigner.DEFAULT_ISSUER;

    /** What the queue signs with; the shop has only its published part. */
    private final AdmissionKeys queueKeys = AdmissionKeys.of(null, SECRET);

    private final long far = NOW + 600_000;

    private AdmissionGate shopGate;

    @BeforeEach
    void shopGate() {
        // the shop's own secret is not the queue's: no entry token of the queue passes its HMAC check
        this.shopGate = new AdmissionGate(redis, new TokenCodec(TestSecrets.random("the-shops-own-secret")),
                JsonMapper.shared(), properties(0), TestRedis.TIMER,
                Keyspace.DEFAULT, AdmissionVerifier.of(this.queueKeys.published(), ISSUER));
    }

    @Test
    void anAdmissionVerifiedByKeysBooksOnceAndTheBareTokenDoesNot() {
        Token token = this.codec.issue(this.product, "alice");
        admit(token.value(), this.far);
        stock(5);
        String admission = new AdmissionSigner(this.queueKeys, ISSUER).sign(token, System.currentTimeMillis() + 60_000);

        refused(token.value());
        Reservation reservation = this.shopGate.reserve(this.product, admission, 1, NOW);
        assertThat(reservation.userId()).isEqualTo("alice");
        assertThat(reservation.token()).isEqualTo(token.value());
        assertThat(stockValue()).isEqualTo("4");
        refused(admission);
    }

    @Test
    void anExpiredForeignOrRevokedAdmissionIsRefused() {
        Token token = this.codec.issue(this.product, "bob");
        stock(5);
        String admission = new AdmissionSigner(this.queueKeys, ISSUER).sign(token, System.currentTimeMillis() + 60_000);
        // signed, but the entry is gone (revoked, expired or never admitted): the script refuses it
        refused(admission);
        admit(token.value(), this.far);
        refused(new AdmissionSigner(this.queueKeys, ISSUER).sign(token, System.currentTimeMillis() - 10_000));
        refused(new AdmissionSigner(AdmissionKeys.of(null, "another-deployments-secret"), ISSUER)
            .sign(token, System.currentTimeMillis() + 60_000));
        Token otherProduct = this.codec.issue(this.product + 1, "bob");
        refused(new AdmissionSigner(this.queueKeys, ISSUER).sign(otherProduct, System.currentTimeMillis() + 60_000));
        assertThat(stockValue()).isEqualTo("5");
    }

    /** A JWS the queue's own keys signed is taken only when it is an admission of this issuer. */
    @Test
    void aPassOrAnotherIssuersAdmissionSignedByTheQueuesKeysIsRefused() throws Exception {
        Token token = this.codec.issue(this.product, "carol");
        admit(token.value(), this.far);
        stock(5);
        SignedJWT pass = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT)
            .keyID(this.queueKeys.signing().getKeyID()).build(), new JWTClaimsSet.Builder().subject("carol")
                .claim("product", this.product).claim("lane", "priority").jwtID(token.value())
                .expirationTime(new Date(System.currentTimeMillis() + 60_000)).build());
        pass.sign(new ECDSASigner(this.queueKeys.signing()));
        refused(pass.serialize());
        refused(new AdmissionSigner(this.queueKeys, "https://another-deployment.example")
            .sign(token, System.currentTimeMillis() + 60_000));
        assertThat(stockValue()).isEqualTo("5");
        // the same entry, with its own admission, still books
        this.shopGate.reserve(this.product, new AdmissionSigner(this.queueKeys, ISSUER)
            .sign(token, System.currentTimeMillis() + 60_000), 1, NOW);
        assertThat(stockValue()).isEqualTo("4");
    }

    private void refused(String tokenOrAdmission) {
        assertThatExceptionOfType(GateRejectedException.class)
            .isThrownBy(() -> this.shopGate.reserve(this.product, tokenOrAdmission, 1, NOW))
            .satisfies((ex) -> assertThat(ex.code()).isEqualTo(ProblemCodes.TOKEN_NOT_ADMITTED));
    }
}
