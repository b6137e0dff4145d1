package io.queuegate.ingest.enter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import io.queuegate.core.secret.SecretPolicy;
import io.queuegate.ingest.IngestProperties;

import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The keys a shop's backend enters its logged-in users with ({@code queuegate.ingest.enter-keys}), in queues of
 * identity {@code trusted}. Held to the secrets' policy at start, and never the admin token: the key lives in a
 * shop's backend, so whoever reads it there must not also be able to change the queues.
 */
@Component
class EnterKeys {

    private static final String BEARER = "Bearer ";

    /** SHA-256 of each key: compared digest to digest, so the time a comparison takes says nothing of a key. */
    private final List<byte[]> digests;

    EnterKeys(IngestProperties properties, Environment environment) {
        List<String> keys = properties.enterKeys().stream().filter((key) -> !key.isBlank()).toList();
        // ingest serves no admin API, but a deployment hands every service the admin token (./run.sh, compose)
        List<String> adminTokens = List.of(environment.getProperty("queuegate.admin.token", ""),
                environment.getProperty("ADMIN_TOKEN", ""));
        for (String key : keys) {
            SecretPolicy.require("ENTER_KEY", key, environment);
            if (adminTokens.contains(key)) {
                throw new IllegalStateException("ENTER_KEY must not be the admin token: the key is kept in a shop's "
                        + "backend, which must not be able to change the queues");
            }
        }
        this.digests = keys.stream().map(EnterKeys::digest).toList();
    }

    /** Whether a request said anything that could be a key: an {@code Authorization} header at all. */
    static boolean presented(String authorization) {
        return authorization != null && !authorization.isBlank();
    }

    /**
     * Whether the header carries one of the keys as a bearer token. Every key is compared, in constant time, so that
     * neither which key matched nor how much of one did shows in the time taken.
     */
    boolean accepts(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        byte[] given = digest(authorization.substring(BEARER.length()).trim());
        boolean accepted = false;
        for (byte[] key : this.digests) {
            accepted |= MessageDigest.isEqual(key, given);
        }
        return accepted;
    }

    private static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is not available", ex);
        }
    }
}
