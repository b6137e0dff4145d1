package io.queuegate.core.token;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Issues and verifies entry tokens: {@code base64url(version | productId | userId | mac)}. The version byte also
 * names the lane: 1 for the general line, 2 for the priority lane, so a general token is what it always was and a
 * lane cannot be changed without the secret.
 *
 * <p>The token is a pure function of the secret, the product and the user. That is what lets ingest answer a
 * re-entry with the same token, and keep its place, without asking Redis; and it lets every service reject a
 * token this deployment did not issue before touching Redis. The MAC is HMAC-SHA256 truncated to 128 bits.
 * With a 64-character user id and a 63-bit product id a token is at most 120 characters.
 */
public final class TokenCodec {

    public static final int MAX_TOKEN_LENGTH = 128;

    private static final byte GENERAL = 1;
    private static final byte PRIORITY = 2;
    private static final int MAC_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final Mac prototype;

    public TokenCodec(String secret) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("the token secret must have at least 16 characters");
        }
        try {
            this.prototype = Mac.getInstance(ALGORITHM);
            this.prototype.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HMAC-SHA256 is not available", ex);
        }
    }

    public Token issue(long productId, String userId) {
        return issue(productId, userId, Lane.GENERAL);
    }

    public Token issue(long productId, String userId, Lane lane) {
        if (productId <= 0 || !UserIds.isValid(userId)) {
            throw new IllegalArgumentException("a token needs a positive product id and a valid user id");
        }
        byte[] user = userId.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer body = ByteBuffer.allocate(1 + 10 + user.length + MAC_BYTES);
        body.put(lane == Lane.PRIORITY ? PRIORITY : GENERAL);
        putVarLong(body, productId);
        body.put(user);
        byte[] mac = mac(body.array(), body.position());
        body.put(mac, 0, MAC_BYTES);
        return new Token(productId, userId,
                ENCODER.encodeToString(Arrays.copyOf(body.array(), body.position())), lane);
    }

    /** Returns the token's content when this deployment issued it; empty for anything else, never an exception. */
    public Optional<Token> verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_LENGTH) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = DECODER.decode(token);
        }
        catch (IllegalArgumentException ex) {
            return Optional.empty();
        }
        if (bytes.length < 2 + 1 + MAC_BYTES || (bytes[0] != GENERAL && bytes[0] != PRIORITY)) {
            return Optional.empty();
        }
        int signed = bytes.length - MAC_BYTES;
        byte[] expected = mac(bytes, signed);
        if (!MessageDigest.isEqual(Arrays.copyOf(expected, MAC_BYTES), Arrays.copyOfRange(bytes, signed, bytes.length))) {
            return Optional.empty();
        }
        ByteBuffer body = ByteBuffer.wrap(bytes, 1, signed - 1);
        long productId = getVarLong(body);
        String userId = new String(bytes, body.position(), signed - body.position(), StandardCharsets.US_ASCII);
        if (productId <= 0 || !UserIds.isValid(userId) || !token.equals(ENCODER.encodeToString(bytes))) {
            // the last check refuses non-canonical spellings of the same bytes, so one place has one token
            return Optional.empty();
        }
        Lane lane = bytes[0] == PRIORITY ? Lane.PRIORITY : Lane.GENERAL;
        return Optional.of(new Token(productId, userId, token, lane));
    }

    /**
     * Returns the token's content when this deployment issued it for {@code productId}; empty for anything else.
     * Every caller acts on one product, so a genuine token of another product is refused like a forged one.
     */
    public Optional<Token> verify(String token, long productId) {
        return verify(token).filter(verified -> verified.productId() == productId);
    }

    private byte[] mac(byte[] data, int length) {
        try {
            Mac mac = (Mac) this.prototype.clone();
            mac.update(data, 0, length);
            return mac.doFinal();
        }
        catch (CloneNotSupportedException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void putVarLong(ByteBuffer buffer, long value) {
        while ((value & ~0x7FL) != 0) {
            buffer.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buffer.put((byte) value);
    }

    private static long getVarLong(ByteBuffer buffer) {
        long value = 0;
        for (int shift = 0; shift < 64 && buffer.hasRemaining(); shift += 7) {
            byte b = buffer.get();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        return -1;
    }
}
