package io.queuegate.core.admission;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.text.ParseException;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;

/**
 * The keys admissions are signed with (ES256, P-256): the first of {@code queuegate.token.signing-keys} signs, every
 * one of them is published ({@code /.well-known/jwks.json}), so that a rotation (a new key first, the old one kept
 * second until the admissions it signed have expired) never invalidates an admission in flight. Without configured
 * keys, one key is derived from the token secret, so that every instance of a deployment signs with the same key and
 * nothing more has to be distributed; its id is its thumbprint.
 */
public final class AdmissionKeys {

    private final ECKey signing;

    private final JWKSet published;

    private AdmissionKeys(List<ECKey> keys) {
        this.signing = keys.getFirst();
        this.published = new JWKSet(keys.stream().map(ECKey::toPublicJWK).map(JWK.class::cast).toList());
    }

    /**
     * @param signingKeys a JWK set (JSON) of private P-256 keys, the signing one first; null or blank to derive one
     *        from the token secret
     * @param tokenSecret the deployment's token secret
     */
    public static AdmissionKeys of(String signingKeys, String tokenSecret) {
        if (signingKeys == null || signingKeys.isBlank()) {
            return new AdmissionKeys(List.of(derived(tokenSecret)));
        }
        JWKSet set;
        try {
            set = JWKSet.parse(signingKeys);
        }
        catch (ParseException ex) {
            throw new IllegalArgumentException("queuegate.token.signing-keys is not a JWK set: " + ex.getMessage());
        }
        List<ECKey> keys = set.getKeys().stream().map(AdmissionKeys::signingKey).toList();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("queuegate.token.signing-keys holds no key");
        }
        return new AdmissionKeys(keys);
    }

    /** The key that signs, with its private part. */
    public ECKey signing() {
        return this.signing;
    }

    /** Every key's public part: what {@code /.well-known/jwks.json} serves. */
    public JWKSet published() {
        return this.published;
    }

    private static ECKey signingKey(JWK key) {
        if (!(key instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve()) || !ec.isPrivate()
                || ec.getKeyID() == null) {
            throw new IllegalArgumentException("queuegate.token.signing-keys: every key must be a private P-256 EC "
                    + "key with a kid (ES256)");
        }
        return ec;
    }

    /** The deployment's key, derived from its token secret: the same on every instance, never stored. */
    static ECKey derived(String tokenSecret) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new DerivedRandom(tokenSecret));
            KeyPair pair = generator.generateKeyPair();
            return new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .privateKey(pair.getPrivate())
                .keyUse(KeyUse.SIGNATURE)
                .algorithm(JWSAlgorithm.ES256)
                .keyIDFromThumbprint()
                .build();
        }
        catch (GeneralSecurityException | JOSEException ex) {
            throw new IllegalStateException("an EC P-256 key could not be made", ex);
        }
    }

    /**
     * Bytes drawn from the token secret (HMAC-SHA256 in counter mode), for the key generator alone: the same secret
     * gives the same key.
     */
    private static final class DerivedRandom extends SecureRandom {

        private static final long serialVersionUID = 1L;

        private final transient Mac mac;

        private long counter;

        DerivedRandom(String secret) throws GeneralSecurityException {
            this.mac = Mac.getInstance("HmacSHA256");
            this.mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        }

        @Override
        public synchronized void nextBytes(byte[] bytes) {
            int filled = 0;
            while (filled < bytes.length) {
                this.mac.update("queuegate admission signing key".getBytes(StandardCharsets.UTF_8));
                byte[] block = this.mac.doFinal(java.nio.ByteBuffer.allocate(8).putLong(this.counter++).array());
                int n = Math.min(block.length, bytes.length - filled);
                System.arraycopy(block, 0, bytes, filled, n);
                filled += n;
            }
        }
    }
}
