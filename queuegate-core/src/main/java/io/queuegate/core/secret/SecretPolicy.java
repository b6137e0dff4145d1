package io.queuegate.core.secret;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

import org.springframework.core.env.Environment;

/**
 * What a deployment's secrets (the token secret, the admin token) must be outside explicit local development (the
 * {@code dev} profile): at least {@value #MIN_BYTES} bytes, and none of the values this repository writes down,
 * which anyone can read. A service that would start with such a secret stops at start instead, before it signs a
 * token anyone could forge or opens an admin API anyone could call.
 */
public final class SecretPolicy {

    public static final String DEV_PROFILE = "dev";

    /** 256 bits: what an HMAC-SHA256 key needs to be as strong as the hash. */
    public static final int MIN_BYTES = 32;

    /** The development token secret of {@code ./run.sh --dev} and the services' own files. */
    public static final String DEV_TOKEN_SECRET = "dev-only-token-secret-change-me";

    /** The development admin token. */
    public static final String DEV_ADMIN_TOKEN = "dev-admin-token";

    /**
     * Every secret value written in this repository for a deployment to start with (the development defaults,
     * placeholders an earlier compose file shipped, the examples of the docs). Tests generate theirs.
     */
    static final Set<String> PUBLISHED = Set.of(DEV_TOKEN_SECRET, DEV_ADMIN_TOKEN,
            "change-me-token-secret-0123", "change-me-admin", "change-me", "changeme", "secret");

    private SecretPolicy() {
    }

    /**
     * @param variable the environment variable that sets the secret, named in the refusal
     * @throws IllegalStateException when the secret is missing, shorter than {@value #MIN_BYTES} bytes or published,
     *         and the {@code dev} profile is not active
     */
    public static void require(String variable, String value, Environment environment) {
        String refusal = refusal(value, Arrays.asList(environment.getActiveProfiles()).contains(DEV_PROFILE));
        if (refusal != null) {
            throw new IllegalStateException(variable + " must be set to a private value outside the '" + DEV_PROFILE
                    + "' profile: " + refusal);
        }
    }

    /** Why the value is refused, or null when it is not. */
    static String refusal(String value, boolean dev) {
        if (value == null || value.isBlank()) {
            return "it is empty";
        }
        if (dev) {
            return null;
        }
        if (PUBLISHED.contains(value.trim())) {
            return "this value is written in the repository, so anyone can read it";
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes < MIN_BYTES) {
            return "it has " + bytes + " bytes, fewer than " + MIN_BYTES
                    + " (openssl rand -hex 32 makes one)";
        }
        return null;
    }
}
