package io.queuegate.ingest.enter;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

import org.springframework.stereotype.Component;

/**
 * Makes the user id of a visitor: 128 random bits, 22 base64url characters, drawn from nothing a client sends. The
 * id is what the visitor's token is issued for, so guessing it must be as hard as guessing the token.
 *
 * <p>Drawn from several DRBG instances (NIST SP 800-90A, seeded by the operating system) picked by thread: one
 * {@link SecureRandom} is synchronized, and at a sale's opening every event loop makes ids at once.
 */
@Component
public class VisitorIds {

    static final int RANDOM_BYTES = 16;

    private static final int STRIPES = 16;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom[] sources = new SecureRandom[STRIPES];

    VisitorIds() {
        for (int i = 0; i < STRIPES; i++) {
            try {
                this.sources[i] = SecureRandom.getInstance("DRBG");
            }
            catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException("no DRBG SecureRandom", ex);
            }
        }
    }

    /** A new visitor's user id. */
    public String next() {
        byte[] bytes = new byte[RANDOM_BYTES];
        this.sources[(int) (Thread.currentThread().threadId() % STRIPES)].nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }
}
