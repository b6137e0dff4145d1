package io.queuegate.ingest.enter;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.Lane;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.ingest.IngestProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Whether a queue exists and is open, and what it asks at join (proof of work, a pass): read from Redis once, then
 * served from memory to every enter, so that no enter waits on Redis. The copy is read again in the background: at
 * once when the queue's settings are announced changed ({@link QueueChanges}), and every {@code queueCacheTtl} for
 * every queue ingest knows ({@link #refreshKnown}), so a close or a deletion refuses enters within a Redis read of
 * being announced, and within {@code queueCacheTtl} when the announcement is lost, however quiet the queue was; a
 * product no queue is known for is read again on its first enter after {@code queueCacheTtl}. The copy is served while
 * it is read again, so a slow or briefly absent Redis does not stall enters for queues ingest already knows: the log,
 * not Redis, absorbs the burst.
 */
@Component
class QueueDirectory {

    private static final Logger log = LoggerFactory.getLogger(QueueDirectory.class);

    enum Availability { UNKNOWN, CLOSED, OPEN }

    /**
     * What the door needs to know of a queue.
     *
     * @param challengeMaxNumber the ALTCHA challenge's largest secret number; 0 when no proof is asked
     * @param identity who the queue's places belong to: how an enter's user id is had
     * @param takesPasses whether the queue takes passes at all
     * @param passes the verifier of the queue's passes; null when it takes none, or when the keys the shop publishes
     *        could not be fetched
     */
    record Door(Availability availability, int challengeMaxNumber, Identity identity, boolean takesPasses,
            PassVerifier passes) {

        static final Door UNKNOWN = new Door(Availability.UNKNOWN, 0, Identity.VISITOR, false, null);

        /** How soon to try again when a shop's published keys could not be fetched. */
        private static final Duration KEYS_RETRY_AFTER = Duration.ofSeconds(5);

        /** @param maxPassLifetime how far off a pass's {@code exp} may be ({@code max-pass-lifetime}) */
        static Door of(QueueSettings settings, PublishedPassKeys published, Duration maxPassLifetime) {
            PassVerifier passes = settings.passKeys() != null ? PassVerifier.of(settings.passKeys())
                    : settings.passJwksUri() != null ? published.verifier(settings.passJwksUri()).orElse(null)
                    : null;
            if (passes != null) {
                passes = passes.withMaxLifetime(maxPassLifetime);
            }
            return new Door(settings.open() ? Availability.OPEN : Availability.CLOSED,
                    settings.asksForProof() ? settings.challengeMaxNumber() : 0, settings.identity(),
                    settings.takesPasses(), passes);
        }

        boolean asksForProof() {
            return this.challengeMaxNumber > 0;
        }

        /**
         * Whom the pass was signed for, and the lane it grants.
         *
         * @throws ApiException 403 {@code pass_invalid}, or 503 when the shop's published keys cannot be read
         */
        PassVerifier.Holder holder(long productId, String pass) {
            return verifier(productId).verify(pass, productId).orElseThrow(Door::invalidPass);
        }

        /**
         * The lane the pass grants this user: the general line without one.
         *
         * @throws ApiException 403 {@code pass_invalid}, or 503 when the shop's published keys cannot be read
         */
        Lane lane(long productId, String userId, String pass) {
            if (pass == null) {
                return Lane.GENERAL;
            }
            return verifier(productId).verify(pass, productId, userId).orElseThrow(Door::invalidPass);
        }

        private PassVerifier verifier(long productId) {
            if (!this.takesPasses) {
                throw new ApiException(HttpStatus.FORBIDDEN, ProblemCodes.PASS_INVALID,
                        "The line of product " + productId + " takes no passes: enter without one.");
            }
            if (this.passes == null) {
                throw ApiException.unavailable("The keys that verify this line's passes could not be read from the "
                        + "shop; try again shortly.", KEYS_RETRY_AFTER);
            }
            return this.passes;
        }

        private static ApiException invalidPass() {
            return new ApiException(HttpStatus.FORBIDDEN, ProblemCodes.PASS_INVALID, "The pass is not signed by this "
                    + "line's keys, has expired or is not valid yet, is valid for longer than this line takes, or is for "
                    + "another user or line.");
        }
    }

    /**
     * How long a known answer may still be served while Redis cannot be read, and how long a product nobody asks about
     * is kept (and read again every {@code queueCacheTtl}).
     */
    private static final Duration STALE_LIMIT = Duration.ofMinutes(5);

    /**
     * Where the reads in the background run: each blocks on Redis (and, for a queue whose pass keys a shop publishes,
     * on the shop's server), so not on the common pool's one or two threads.
     */
    private static final Executor REREADS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("queue-reread-", 0).factory());

    private final LoadingCache<Long, Door> cache;

    private final QueueStore store;

    private final PublishedPassKeys published;

    private final Duration maxPassLifetime;

    QueueDirectory(QueueStore store, PublishedPassKeys published, IngestProperties properties) {
        this.store = store;
        this.published = published;
        this.maxPassLifetime = properties.maxPassLifetime();
        this.cache = Caffeine.newBuilder()
            .maximumSize(100_000)
            .executor(REREADS)
            .refreshAfterWrite(properties.queueCacheTtl())
            .expireAfterWrite(STALE_LIMIT)
            .expireAfterAccess(STALE_LIMIT)
            .build(new CacheLoader<Long, Door>() {

                @Override
                public Door load(Long productId) {
                    return read(productId);
                }

                @Override
                public Door reload(Long productId, Door old) {
                    return reread(productId, old);
                }
            });
    }

    private Door read(long productId) {
        return this.store.findSettings(productId)
            .map((settings) -> Door.of(settings, this.published, this.maxPassLifetime))
            .orElse(Door.UNKNOWN);
    }

    /**
     * A known queue does not become unknown on a re-read: settings that vanish mean a Redis that lost them, and they
     * come back from the log while the enters go on being accepted into it, or a deleted queue that drained, which
     * was closed for a minute before it went and so stays closed here.
     */
    private Door reread(long productId, Door old) {
        Door now = read(productId);
        return now.availability() == Availability.UNKNOWN ? old : now;
    }

    /**
     * Reads the queue's settings again in the background, when ingest has a copy: its settings were announced
     * changed. The copy goes on being served until the read is back, a Redis round trip later. The read is made here
     * rather than as the cache's refresh: a refresh already under way is not made again, and it may have been
     * answered before the change; what this read stores makes the cache discard that one's answer.
     */
    void changed(long productId) {
        Door old = this.cache.getIfPresent(productId);
        if (old == null) {
            return;
        }
        REREADS.execute(() -> {
            try {
                this.cache.asMap().replace(productId, reread(productId, old));
            }
            catch (RuntimeException ex) {
                // the periodic read will try again
                log.warn("Reading the settings of queue {} again failed: {}", productId, ex.toString());
            }
        });
    }

    /**
     * Reads every known queue's settings again in the background: what bounds how long a change whose announcement
     * was lost is missed. Products without a queue are left to their next enter, so that enters for made-up products
     * cost no reads here.
     */
    void refreshKnown() {
        this.cache.asMap().forEach((productId, door) -> {
            if (door.availability() != Availability.UNKNOWN) {
                this.cache.refresh(productId);
            }
        });
    }

    /** Whether the queue's state is in memory, so that {@link #requireOpen} answers without reading Redis. */
    boolean knows(long productId) {
        return this.cache.getIfPresent(productId) != null;
    }

    /** The open queue's door; throws the problem a client should see unless the queue takes new entries. */
    Door requireOpen(long productId) {
        Door door = requireKnown(productId);
        if (door.availability() == Availability.CLOSED) {
            throw new ApiException(HttpStatus.CONFLICT, ProblemCodes.QUEUE_CLOSED,
                    "The queue for product " + productId + " is closed.");
        }
        return door;
    }

    /** The queue's door, open or closed; throws 404 for a product without a queue. Reads Redis when not known. */
    Door requireKnown(long productId) {
        Door door = this.cache.get(productId);
        if (door.availability() == Availability.UNKNOWN) {
            throw ApiException.queueNotFound(productId);
        }
        return door;
    }
}
