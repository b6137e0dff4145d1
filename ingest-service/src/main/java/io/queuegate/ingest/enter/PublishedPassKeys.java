package io.queuegate.ingest.enter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.nimbusds.jose.jwk.JWKSet;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.web.egress.EgressClient;
import io.queuegate.web.egress.EgressProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * The pass keys shops publish ({@code passJwksUri}): each set fetched once, then again every minute in the
 * background while the last one goes on verifying, so a shop's key rotation reaches every ingest within a minute and
 * a shop whose server is briefly down does not stop its invitees (its last keys serve for up to an hour).
 * Fetched as {@code queuegate.egress.*} allows ({@link EgressClient}: https, public addresses only, checked when
 * connecting, no redirect followed), each fetch within {@link #TIMEOUT} from connecting to the last byte and no larger
 * than {@link #SIZE_LIMIT}, then parsed by nimbus-jose-jwt; never on an event loop: the queue directory asks for them
 * when it reads a queue, which it does off the event loops.
 */
@Component
class PublishedPassKeys implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PublishedPassKeys.class);

    /** How often a shop's key set is read again. */
    static final Duration REFRESH = Duration.ofMinutes(1);

    /** How long the last keys read serve while the shop's server cannot be reached. */
    private static final Duration STALE_LIMIT = Duration.ofHours(1);

    /** How long one fetch may take, connecting and reading the whole answer included. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** A JWK set of ten keys is about 2 KB. */
    static final int SIZE_LIMIT = 64 * 1024;

    private static final String ACCEPT = "application/jwk-set+json, application/json";

    private final EgressClient http;

    private final LoadingCache<String, PassVerifier> verifiers;

    PublishedPassKeys(EgressProperties egress) {
        this.http = new EgressClient(egress, TIMEOUT, "pass-keys");
        this.verifiers = Caffeine.newBuilder()
            .maximumSize(10_000)
            .refreshAfterWrite(REFRESH)
            .expireAfterWrite(STALE_LIMIT)
            .build(this::fetch);
    }

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

    private PassVerifier fetch(String uri) throws IOException, ParseException {
        EgressClient.Reply reply = this.http.get(uri, ACCEPT, SIZE_LIMIT);
        if (!reply.successful()) {
            throw new IOException("The key set's server answered " + reply.status()
                    + (reply.status() / 100 == 3 ? ", a redirect, which is not followed" : "") + ".");
        }
        return PassVerifier.ofPublished(JWKSet.parse(new String(reply.body(), StandardCharsets.UTF_8)));
    }

    @Override
    public void close() {
        this.http.close();
    }
}
