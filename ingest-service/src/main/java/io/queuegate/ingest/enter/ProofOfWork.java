package io.queuegate.ingest.enter;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.queuegate.core.token.TokenProperties;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import org.altcha.altcha.Altcha;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Proof of work at join with ALTCHA's protocol and its Java library ({@code org.altcha:altcha}, which makes the
 * challenges and parses their salts; the check itself is made here, see {@link #verified}): a challenge is the
 * SHA-256 of a salt and a secret number, signed with a key only ingest holds; a client finds the number by trying
 * them all, a verifier checks one hash and one HMAC. The salt carries its expiry, the product and the user it was
 * handed to, all under the signature, so ingest keeps no state to check a proof: one solution is one user's place in
 * one line, until it expires. What it does keep is the proofs already used ({@link UsedProofs}, per instance), so
 * that one solution enters once.
 */
@Component
class ProofOfWork {

    private static final String PRODUCT = "product";

    private static final String USER = "user";

    private static final JsonMapper JSON = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();

    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("SHA-256 is not available", ex);
        }
    });

    private final String key;

    /** HMAC-SHA256 with the key, one per thread. */
    private final ThreadLocal<Mac> mac;

    private final Duration expires;

    /** The used proofs, by the first 64 bits of their challenge, until they expire. */
    private final UsedProofs used;

    ProofOfWork(TokenProperties tokens, ChallengeProperties properties) {
        this.key = derivedKey(tokens.secret());
        this.mac = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(this.key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                return mac;
            }
            catch (GeneralSecurityException ex) {
                throw new IllegalStateException("HMAC-SHA256 is not available", ex);
            }
        });
        this.expires = properties.expires();
        this.used = new UsedProofs(properties.rememberedProofs());
    }

    /**
     * Whom a challenge fetched without a user id is for: anyone, since a visitor has no id before the enter that the
     * proof pays for. Not a valid user id, so no named user's challenge reads as one of these.
     */
    static final String ANYONE = "*";

    /**
     * A challenge for this user in this product's line, whose secret number is at most {@code maxNumber}.
     *
     * @param userId the user it is for, or {@link #ANYONE}
     */
    Challenge challenge(long productId, String userId, int maxNumber) {
        return challenge(productId, userId, maxNumber, Instant.now().plus(this.expires));
    }

    /** The same, expiring at the given instant. */
    Challenge challenge(long productId, String userId, int maxNumber, Instant expires) {
        Altcha.Challenge challenge;
        try {
            challenge = Altcha.createChallenge(new Altcha.ChallengeOptions()
                .setAlgorithm(Altcha.Algorithm.SHA256)
                .setMaxNumber((long) maxNumber)
                .setSecureRandomNumber(true)
                .setExpires(expires.getEpochSecond())
                .addParam(PRODUCT, Long.toString(productId))
                .addParam(USER, userId)
                .setHmacKey(this.key));
        }
        catch (Exception ex) {
            throw new IllegalStateException("an ALTCHA challenge could not be made", ex);
        }
        return new Challenge(challenge.algorithm, challenge.challenge, challenge.maxnumber, challenge.salt,
                challenge.signature);
    }

    /**
     * Takes the proof for this user's enter: returns what {@link #giveBack} needs should the enter fail after all,
     * or throws 403 {@code proof_required} (none) or {@code proof_invalid} (malformed, wrongly signed, expired, solved
     * for another user or line, or used already). A challenge for {@link #ANYONE} pays for one enter of whoever
     * solved it: each proof is spent once, so one solved challenge is still one place.
     *
     * @param userId the user who enters; null for a visitor, whose id is not made yet
     */
    long spend(long productId, String userId, String proof) {
        if (proof == null || proof.isEmpty()) {
            throw refusal(ProblemCodes.PROOF_REQUIRED, "This line asks for a solved challenge (proof) with the enter: "
                    + "GET /api/v1/queues/" + productId + "/challenge and solve it.");
        }
        Submitted payload = payload(proof);
        if (payload == null || payload.salt() == null) {
            throw invalid();
        }
        Map<String, String> params;
        try {
            params = Altcha.extractParams(payload.salt());
        }
        catch (Exception ex) {
            throw invalid();
        }
        long expires = expiresOf(params);
        long now = System.currentTimeMillis() / 1000;
        if (expires < now || !verified(payload) || !Long.toString(productId).equals(params.get(PRODUCT))
                || !(ANYONE.equals(params.get(USER)) || (userId != null && userId.equals(params.get(USER))))) {
            throw invalid();
        }
        long id = HexFormat.fromHexDigitsToLong(payload.challenge(), 0, 16);
        // 0 marks an empty slot among the used proofs; one challenge in 2^64 takes the id 1 instead
        id = id == 0 ? 1 : id;
        if (!this.used.take(id, expires, now)) {
            throw invalid();
        }
        return id;
    }

    /** The enter the proof was spent on was not accepted (Kafka refused it): the proof may be used again. */
    void giveBack(long spent) {
        this.used.giveBack(spent);
    }

    /**
     * ALTCHA's check, as its library's {@code verifySolution} makes it (the salt's expiry is checked before): SHA-256
     * of the salt and the number is the challenge, and the challenge's HMAC is the signature (compared in constant
     * time). Made here with a digest and a MAC per thread: the library looks both up anew for every proof, which took
     * 22 µs of CPU per proof, a third of an enter's (docs/BENCHMARKS.md, "The door's defences").
     */
    private boolean verified(Submitted payload) {
        if (!"SHA-256".equals(payload.algorithm()) || payload.number() == null || payload.number() < 0
                || payload.challenge() == null || payload.challenge().length() != 64
                || payload.signature() == null || payload.signature().length() != 64) {
            return false;
        }
        byte[] challenge = HexFormat.of().formatHex(DIGEST.get()
            .digest((payload.salt() + payload.number()).getBytes(StandardCharsets.UTF_8)))
            .getBytes(StandardCharsets.US_ASCII);
        byte[] signature = HexFormat.of().formatHex(this.mac.get().doFinal(challenge))
            .getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(challenge, payload.challenge().getBytes(StandardCharsets.US_ASCII))
                && MessageDigest.isEqual(signature, payload.signature().getBytes(StandardCharsets.US_ASCII));
    }

    /** When the challenge expires, in epoch seconds, as its salt says; 0 (long past) when it says nothing readable. */
    private static long expiresOf(Map<String, String> params) {
        try {
            return Long.parseLong(params.getOrDefault("expires", ""));
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }

    /** The ALTCHA payload, base64 of JSON; null for anything else. */
    private static Submitted payload(String proof) {
        try {
            return JSON.readValue(Base64.getDecoder().decode(proof), Submitted.class);
        }
        catch (IllegalArgumentException | JacksonException ex) {
            return null;
        }
    }

    /** The challenges' own key: derived from the token secret, so that no signature of one kind passes as the other. */
    private static String derivedKey(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal("queuegate proof-of-work key".getBytes(StandardCharsets.UTF_8)));
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HMAC-SHA256 is not available", ex);
        }
    }

    private static ApiException invalid() {
        return refusal(ProblemCodes.PROOF_INVALID, "The proof is not a solution of a challenge for this user and "
                + "line, has expired, or was used already; fetch a new challenge.");
    }

    private static ApiException refusal(String code, String detail) {
        return new ApiException(HttpStatus.FORBIDDEN, code, detail);
    }

    /** What a client sends: ALTCHA's payload. */
    private record Submitted(String algorithm, String challenge, Long number, String salt, String signature) {
    }
}
