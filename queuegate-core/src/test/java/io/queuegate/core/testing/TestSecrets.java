package io.queuegate.core.testing;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Secrets for tests, made anew in every run: a value written in the repository is one a service refuses outside the
 * {@code dev} profile ({@code SecretPolicy}), as anyone can read it.
 */
public final class TestSecrets {

    private static final SecureRandom RANDOM = new SecureRandom();

    private TestSecrets() {
    }

    /** 32 random bytes in hex, after a name that says what the secret is for. */
    public static String random(String purpose) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return purpose + "-" + HexFormat.of().formatHex(bytes);
    }
}
