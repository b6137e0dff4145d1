package io.queuegate.core.pass;

import java.net.URI;
import java.net.URISyntaxException;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.queuegate.core.token.Lane;
import io.queuegate.core.token.UserIds;

/**
 * Verifies a shop's pass: a JWS its backend signed (ES256) with claims {@code sub} (the user id), {@code product},
 * {@code exp} and optionally {@code lane: "priority"} and {@code nbf}, by the public keys the queue's settings hold
 * ({@code passKeys}). Only ES256 is taken, so {@code alg: none} and an HMAC "signed" with a public key are refused;
 * a {@code kid}, when the pass names one, must be in the set; the header's {@code typ}, when given, must be
 * {@code JWT} (so an admission, {@code queuegate-admission+jwt}, is never a pass). A pass not valid yet ({@code nbf})
 * is refused, and so is one whose {@code exp} is further off than the deployment's longest pass lifetime
 * ({@code queuegate.ingest.max-pass-lifetime}): a pass that leaked must stop working soon, whatever the shop signed.
 * Sixty seconds of clock skew, as JOSE libraries allow by default. One verification is an ECDSA check, about a tenth
 * of a millisecond.
 */
public final class PassVerifier {

    /** The claim naming the product the pass is for: a number, as product ids are. */
    public static final String PRODUCT = "product";

    /** The claim naming the lane; {@code "priority"} or absent. */
    public static final String LANE = "lane";

    /** The most keys a queue holds: the current and previous keys of a few shops' backends. */
    public static final int MAX_KEYS = 10;

    /** Far longer than a pass with the three claims and a lane (about 300 characters). */
    public static final int MAX_PASS_LENGTH = 4096;

    /** The longest a pass may still be valid for when it is shown, unless the deployment says otherwise. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofDays(1);

    private static final Set<String> REQUIRED = Set.of("sub", "exp", PRODUCT);

    /** The skew allowed on {@code exp}, {@code nbf} and the lifetime bound: nimbus-jose-jwt's default. */
    private static final long CLOCK_SKEW_MILLIS = DefaultJWTClaimsVerifier.DEFAULT_MAX_CLOCK_SKEW_SECONDS * 1000L;

    private final DefaultJWTProcessor<SecurityContext> processor;

    private final long maxLifetimeMillis;

    private PassVerifier(JWKSet keys) {
        this.processor = new DefaultJWTProcessor<>();
        this.processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256,
                new ImmutableJWKSet<>(keys)));
        // checks exp and, when present, nbf, each with the default skew
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                new JWTClaimsSet.Builder().build(), REQUIRED);
        this.processor.setJWTClaimsSetVerifier(claims);
        this.maxLifetimeMillis = DEFAULT_MAX_LIFETIME.toMillis();
    }

    private PassVerifier(PassVerifier keys, Duration maxLifetime) {
        this.processor = keys.processor;
        this.maxLifetimeMillis = maxLifetime.toMillis();
    }

    /**
     * This verifier with another bound on how far off a pass's {@code exp} may be when it is shown.
     *
     * @param maxLifetime positive; {@code queuegate.ingest.max-pass-lifetime}
     */
    public PassVerifier withMaxLifetime(Duration maxLifetime) {
        if (maxLifetime == null || maxLifetime.isNegative() || maxLifetime.isZero()) {
            throw new IllegalArgumentException("a pass's longest lifetime must be positive");
        }
        return new PassVerifier(this, maxLifetime);
    }

    /**
     * A verifier of the keys given, as the queue's settings hold them (JWK members).
     *
     * @throws IllegalArgumentException unless they are 1 to {@link #MAX_KEYS} public P-256 keys for signing: a
     *     private key would put the shop's signing key in our settings, anything else could never verify a pass
     */
    public static PassVerifier of(List<Map<String, Object>> keys) {
        return new PassVerifier(new JWKSet(parse(keys)));
    }

    /**
     * A verifier of the keys a shop publishes (its JWK set, fetched from {@code passJwksUri}): its public EC P-256 keys
     * for signatures; a set also holds keys for other uses, which are left out.
     *
     * @throws IllegalArgumentException when the set holds no such key
     */
    public static PassVerifier ofPublished(JWKSet published) {
        List<JWK> usable = published.getKeys().stream()
            .filter((key) -> key instanceof ECKey ec && Curve.P_256.equals(ec.getCurve()))
            .filter((key) -> key.getKeyUse() == null || KeyUse.SIGNATURE.equals(key.getKeyUse()))
            .map(JWK::toPublicJWK)
            .toList();
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("the published key set holds no EC P-256 key for signatures");
        }
        return new PassVerifier(new JWKSet(usable));
    }

    /** Whether {@code uri} may name a shop's JWK set: an absolute http or https URL with a host. */
    public static boolean isKeySetUrl(String uri) {
        try {
            URI parsed = new URI(uri);
            return parsed.isAbsolute() && parsed.getHost() != null
                    && ("https".equalsIgnoreCase(parsed.getScheme()) || "http".equalsIgnoreCase(parsed.getScheme()));
        }
        catch (URISyntaxException ex) {
            return false;
        }
    }

    /** The keys given, parsed and checked as {@link #of} says; the public members only. */
    public static List<JWK> parse(List<Map<String, Object>> keys) {
        if (keys == null || keys.isEmpty() || keys.size() > MAX_KEYS) {
            throw new IllegalArgumentException("passKeys must hold 1 to " + MAX_KEYS + " keys");
        }
        List<JWK> parsed = new ArrayList<>(keys.size());
        for (Map<String, Object> member : keys) {
            JWK key;
            try {
                key = JWK.parse(member);
            }
            catch (ParseException | RuntimeException ex) {
                throw new IllegalArgumentException("a pass key is not a JWK: " + ex.getMessage());
            }
            if (key.isPrivate()) {
                throw new IllegalArgumentException("a pass key must be public: give the public half only");
            }
            if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve())) {
                throw new IllegalArgumentException("a pass key must be an EC key on P-256 (ES256)");
            }
            if (key.getKeyUse() != null && !KeyUse.SIGNATURE.equals(key.getKeyUse())) {
                throw new IllegalArgumentException("a pass key must be for signatures (use: sig)");
            }
            parsed.add(key.toPublicJWK());
        }
        return parsed;
    }

    /**
     * What a genuine pass for this product, valid now and for no longer than the lifetime bound, says: whom it was
     * signed for and the lane it grants; empty for anything else (never an exception).
     */
    public Optional<Holder> verify(String pass, long productId) {
        if (pass == null || pass.isEmpty() || pass.length() > MAX_PASS_LENGTH) {
            return Optional.empty();
        }
        try {
            JWTClaimsSet claims = this.processor.process(pass, null);
            if (claims.getExpirationTime().getTime() - System.currentTimeMillis()
                    > this.maxLifetimeMillis + CLOCK_SKEW_MILLIS) {
                return Optional.empty();
            }
            Object product = claims.getClaim(PRODUCT);
            String subject = claims.getSubject();
            if (!(product instanceof Number number) || number.longValue() != productId
                    || !UserIds.isValid(subject)) {
                return Optional.empty();
            }
            Object lane = claims.getClaim(LANE);
            if (lane == null) {
                return Optional.of(new Holder(subject, Lane.GENERAL));
            }
            return "priority".equals(lane) ? Optional.of(new Holder(subject, Lane.PRIORITY)) : Optional.empty();
        }
        catch (ParseException | BadJOSEException | JOSEException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    /**
     * The lane the pass grants when it is genuine, unexpired and for this user and product; empty for anything else
     * (never an exception).
     */
    public Optional<Lane> verify(String pass, long productId, String userId) {
        return verify(pass, productId).filter((holder) -> holder.userId().equals(userId)).map(Holder::lane);
    }

    /**
     * Whom a pass was signed for.
     *
     * @param userId the pass's subject: the user id the place is issued for
     * @param lane the lane the pass grants
     */
    public record Holder(String userId, Lane lane) {
    }
}
