package io.queuegate.core.admission;

import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.util.Optional;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

/**
 * Verifies an admission ({@link AdmissionSigner}) with published keys: ES256 only (so {@code alg: none} and an HMAC
 * signed with a public key are refused), a {@code kid} of the key set, a signature, the header's
 * {@code typ: queuegate-admission+jwt} and the deployment's {@code iss} (so a pass, or any other JWS the same keys
 * signed, is not an admission), an {@code exp} not passed (two seconds of clock skew), and the product asked about. Keys come from a JWKS URL (fetched, cached and refreshed when
 * an unknown {@code kid} appears, so a rotation is picked up) or a set given.
 */
public final class AdmissionVerifier {

    private static final Set<String> REQUIRED = Set.of("sub", "exp", "jti", "iss", AdmissionSigner.PRODUCT);

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    private AdmissionVerifier(JWKSource<SecurityContext> keys, String issuer) {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("admissions are verified for an issuer (queuegate.token.issuer)");
        }
        this.processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(AdmissionSigner.TYPE));
        this.processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                new JWTClaimsSet.Builder().issuer(issuer).build(), REQUIRED);
        claims.setMaxClockSkew(2);
        this.processor.setJWTClaimsSetVerifier(claims);
    }

    /**
     * Keys from a JWKS URL, such as any Queuegate service's {@code /.well-known/jwks.json}.
     *
     * @param issuer the queue deployment's {@code queuegate.token.issuer}: the only {@code iss} taken
     */
    public static AdmissionVerifier fromJwksUri(String jwksUri, String issuer) {
        try {
            return new AdmissionVerifier(JWKSourceBuilder.create(URI.create(jwksUri).toURL()).build(), issuer);
        }
        catch (MalformedURLException | IllegalArgumentException ex) {
            throw new IllegalArgumentException("not a JWKS URL: " + jwksUri, ex);
        }
    }

    /**
     * Keys given: the published ones of {@link AdmissionKeys}, or a shop's own copy.
     *
     * @param issuer the queue deployment's {@code queuegate.token.issuer}: the only {@code iss} taken
     */
    public static AdmissionVerifier of(JWKSet keys, String issuer) {
        return new AdmissionVerifier(new ImmutableJWKSet<>(keys), issuer);
    }

    /** The admission's user and token when it is genuine, unexpired and for this product; empty otherwise. */
    public Optional<Admission> verify(String admission, long productId) {
        if (admission == null || admission.length() > 4096) {
            return Optional.empty();
        }
        try {
            JWTClaimsSet claims = this.processor.process(admission, null);
            Object product = claims.getClaim(AdmissionSigner.PRODUCT);
            if (!(product instanceof Number number) || number.longValue() != productId) {
                return Optional.empty();
            }
            return Optional.of(new Admission(productId, claims.getSubject(), claims.getJWTID(),
                    claims.getExpirationTime().getTime()));
        }
        catch (ParseException | BadJOSEException | JOSEException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    /**
     * @param userId {@code sub}
     * @param token {@code jti}: the entry token the admission is for
     * @param expiresAt {@code exp}, epoch milliseconds
     */
    public record Admission(long productId, String userId, String token, long expiresAt) {
    }
}
