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
 * Claims: {@code sub} the user id, {@code product}, {@code exp} (= the entry's expiresAt), {@code jti} the token, and
 * {@code iat}; the header names the key ({@code kid}).
 */
public final class AdmissionSigner {

    /** The claim that names the product. */
    public static final String PRODUCT = "product";

    private final AdmissionKeys keys;

    private final JWSSigner signer;

    public AdmissionSigner(AdmissionKeys keys) {
        this.keys = keys;
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
            .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT)
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
