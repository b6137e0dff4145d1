package io.queuegate.ingest.enter;

import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.nimbusds.jose.jwk.JWKSet;
import io.queuegate.core.pass.PassVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * The pass keys shops publish ({@code passJwksUri}): each set fetched once, then again every minute in the
 * background while the last one goes on verifying, so a shop's key rotation reaches every ingest within a minute and
 * a shop whose server is briefly down does not stop its invitees (its last keys serve for up to an hour).
 * Fetched by nimbus-jose-jwt's loader, with short timeouts and a size limit, never on an event loop: the queue
 * directory asks for them when it reads a queue, which it does off the event loops.
 */
@Component
class PublishedPassKeys {

    private static final Logger log = LoggerFactory.getLogger(PublishedPassKeys.class);

    /** How often a shop's key set is read again. */
    static final Duration REFRESH = Duration.ofMinutes(1);

    /** How long the last keys read serve while the shop's server cannot be reached. */
    private static final Duration STALE_LIMIT = Duration.ofHours(1);

    private static final int TIMEOUT_MS = 2_000;

    /** A JWK set of ten keys is about 2 KB. */
    private static final int SIZE_LIMIT = 64 * 1024;

    private final LoadingCache<String, PassVerifier> verifiers = Caffeine.newBuilder()
        .maximumSize(10_000)
        .refreshAfterWrite(REFRESH)
        .expireAfterWrite(STALE_LIMIT)
        .build(PublishedPassKeys::fetch);

    /** The verifier of the keys published at {@code uri}; empty while they cannot be fetched or hold no usable key. */
    Optional<PassVerifier> verifier(String uri) {
        try {
            return Optional.of(this.verifiers.get(uri));
        }
        catch (RuntimeException ex) {
            log.warn("The pass keys at {} could not be read: {}", uri, ex.toString());
            return Optional.empty();
        }
    }

    private static PassVerifier fetch(String uri) throws IOException, ParseException {
        return PassVerifier.ofPublished(JWKSet.load(URI.create(uri).toURL(), TIMEOUT_MS, TIMEOUT_MS, SIZE_LIMIT));
    }
}
