package io.queuegate.core.admission;

import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.token.Token;

/**
 * Signs an admission: a JWS (ES256) that says this user of this product may book until {@code exp}, which any shop
 * verifies with the published keys alone ({@link AdmissionVerifier}, or any JOSE library), without the token secret.
 * Claims: {@code sub} the user id, {@code product}, {@code exp} (= the entry's expiresAt), {@code jti} the token,
 * {@code iat} and {@code iss} (the deployment, {@code queuegate.token.issuer}); the header names the key ({@code kid})
 * and the kind of token ({@code typ: queuegate-admission+jwt}). The type and the issuer make an admission good for one
 * purpose: a verifier refuses any other JWS its keys happen to verify (a pass, a token of another deployment that
 * shares the keys), and a pass verifier refuses an admission.
 */
public final class AdmissionSigner {

    /** The claim that names the product. */
    public static final String PRODUCT = "product";

    /**
     * The header's {@code typ}: explicit typing (RFC 8725, 3.11), in the {@code application/<name>+jwt} form whose
     * prefix is left out, so that no other JWT, whatever its claims, is taken for an admission.
     */
    public static final JOSEObjectType TYPE = new JOSEObjectType("queuegate-admission+jwt");

    /** The issuer a deployment names when it sets none ({@code queuegate.token.issuer}). */
    public static final String DEFAULT_ISSUER = "queuegate";

    private final AdmissionKeys keys;

    private final JWSSigner signer;

    private final String issuer;

    /** @param issuer the {@code iss} of every admission: the deployment's {@code queuegate.token.issuer} */
    public AdmissionSigner(AdmissionKeys keys, String issuer) {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("an admission needs an issuer (queuegate.token.issuer)");
        }
        this.keys = keys;
        this.issuer = issuer;
        try {
            this.signer = new ECDSASigner(keys.signing());
        }
        catch (JOSEException ex) {
            throw new IllegalStateException("the admission signing key cannot sign", ex);
        }
    }

    /** The admission of an AVAILABLE token, expiring with its entry. */
    public String sign(Token token, long expiresAtMillis) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
            .subject(token.userId())
            .claim(PRODUCT, token.productId())
            .expirationTime(new Date(expiresAtMillis))
            .issueTime(new Date())
            .jwtID(token.value())
            .issuer(this.issuer)
            .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(TYPE)
            .keyID(this.keys.signing().getKeyID()).build(), claims);
        try {
            jwt.sign(this.signer);
        }
        catch (JOSEException ex) {
            throw new IllegalStateException("an admission could not be signed", ex);
        }
        return jwt.serialize();
    }
}
