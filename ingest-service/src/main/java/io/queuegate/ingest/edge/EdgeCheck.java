package io.queuegate.ingest.edge;

import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionSigner;
import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.admission.AdmissionVerifier.Admission;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;
import io.queuegate.ingest.enter.VisitorIds;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Component;

/**
 * Decides what a proxy does with a request to a protected path: pass it (an admission for the product, unexpired and
 * not revoked, in the proxy's cookie), return the person to the clean URL with the cookie set (back from the line with
 * the admission in {@link ReturnUrls#ADMISSION_PARAMETER}), or send them to the waiting page with the URL they asked
 * for. A visitor who brings no admission at all, while the line is empty and has room, is admitted on the spot
 * ({@link EdgeAdmissions}) and passed with the cookie; one who brings an admission that is not valid (forged, cut,
 * expired, another product's, revoked) is sent to the line and nothing is written.
 *
 * <p>Answers from the admission's signature and the keys ingest signs with, the queue's cached settings and the
 * cached revoked set ({@link RevokedAdmissions}): a check reads Redis only to admit on the spot.
 */
@Component
class EdgeCheck {

    /** The proxy's cookie for a product: one per product, so that two protected products on one site never clash. */
    static final String COOKIE_PREFIX = "qg_admission_";

    /**
     * Admissions whose signature verified lately, by their text: a visitor's cookie comes back with each of their
     * requests, and the ECDSA verification is most of a check's CPU (bench/edge.sh). A hit is the exact string that
     * verified, still unexpired; the revoke is asked on every check all the same. About half a kilobyte each.
     */
    private static final int VERIFIED_KEPT = 20_000;

    private final Cache<String, Admission> verified = Caffeine.newBuilder()
        .maximumSize(VERIFIED_KEPT)
        .expireAfterWrite(Duration.ofMinutes(10))
        .build();

    private final EdgeQueues queues;

    private final AdmissionVerifier verifier;

    private final AdmissionSigner signer;

    private final RevokedAdmissions revoked;

    private final EdgeAdmissions admissions;

    private final TokenCodec tokens;

    private final VisitorIds visitors;

    private final EdgeProperties properties;

    private final Counter passed;

    private final Counter returned;

    private final Counter sentToLine;

    private final Counter admittedOnTheSpot;

    EdgeCheck(EdgeQueues queues, AdmissionKeys keys, RevokedAdmissions revoked, EdgeAdmissions admissions,
            TokenCodec tokens, TokenProperties tokenProperties, VisitorIds visitors, EdgeProperties properties,
            MeterRegistry metrics) {
        this.queues = queues;
        this.verifier = AdmissionVerifier.of(keys.published(), tokenProperties.issuer());
        this.signer = new AdmissionSigner(keys, tokenProperties.issuer());
        this.revoked = revoked;
        this.admissions = admissions;
        this.tokens = tokens;
        this.visitors = visitors;
        this.properties = properties;
        this.passed = outcome(metrics, "passed");
        this.returned = outcome(metrics, "returned");
        this.sentToLine = outcome(metrics, "sent_to_line");
        this.admittedOnTheSpot = outcome(metrics, "admitted_on_the_spot");
    }

    private static Counter outcome(MeterRegistry metrics, String outcome) {
        return Counter.builder("queuegate.edge.checks").description("Edge checks answered, by what the proxy was told")
            .tag("outcome", outcome).register(metrics);
    }

    static String cookieName(long productId) {
        return COOKIE_PREFIX + productId;
    }

    /**
     * @param productId the product the protected path belongs to
     * @param https whether the site is reached over https (the cookie is then {@code Secure})
     * @param host the site's host and port as the visitor asked for it; null when the proxy did not say or it is not
     *        a host
     * @param target the request's path and query; null when the proxy did not say or it is not a request target
     * @param cookie the proxy's cookie for this product; null without one
     */
    record Asked(long productId, boolean https, String host, ReturnUrls.Request target, String cookie) {
    }

    Mono<EdgeAnswer> check(Asked asked) {
        return this.queues.settings(asked.productId()).flatMap((settings) -> decide(asked, settings));
    }

    private Mono<EdgeAnswer> decide(Asked asked, Optional<QueueSettings> settings) {
        ReturnUrls.Request target = asked.target();
        if (target != null && target.admission() != null) {
            return valid(asked.productId(), target.admission()).flatMap((back) -> {
                if (back.isPresent()) {
                    this.returned.increment();
                    return Mono.just(EdgeAnswer.returnTo(target.target(), cookie(asked, target.admission(),
                            back.get().expiresAt())));
                }
                return valid(asked.productId(), asked.cookie()).map((held) -> {
                    if (held.isPresent()) {
                        this.returned.increment();
                        return EdgeAnswer.returnTo(target.target(), null);
                    }
                    return toLine(asked, settings);
                });
            });
        }
        if (asked.cookie() != null) {
            return valid(asked.productId(), asked.cookie()).map((held) -> {
                if (held.isPresent()) {
                    this.passed.increment();
                    return EdgeAnswer.PASS;
                }
                return toLine(asked, settings);
            });
        }
        // a target the proxy sent but that is not one (too long, unsafe characters) is hostile or broken: no spot
        if (!this.properties.admitOnTheSpot() || settings.isEmpty() || target == null) {
            return Mono.just(toLine(asked, settings));
        }
        return Mono.fromCallable(() -> admitOnTheSpot(asked)).subscribeOn(Schedulers.boundedElastic())
            .map((admitted) -> admitted.orElseGet(() -> toLine(asked, settings)));
    }

    /** The admission when it is genuine, unexpired, for this product and not revoked. */
    private Mono<Optional<Admission>> valid(long productId, String admission) {
        if (admission == null || admission.isEmpty()) {
            return Mono.just(Optional.empty());
        }
        Optional<Admission> verified = verifiedAdmission(admission, productId);
        if (verified.isEmpty()) {
            return Mono.just(verified);
        }
        return this.revoked.isRevoked(productId, verified.get().userId())
            .map((revoked) -> revoked ? Optional.<Admission>empty() : verified);
    }

    private Optional<Admission> verifiedAdmission(String admission, long productId) {
        Admission known = this.verified.getIfPresent(admission);
        if (known != null) {
            return known.productId() == productId && System.currentTimeMillis() < known.expiresAt()
                    ? Optional.of(known) : Optional.empty();
        }
        Optional<Admission> checked = this.verifier.verify(admission, productId);
        checked.ifPresent((genuine) -> this.verified.put(admission, genuine));
        return checked;
    }

    private Optional<EdgeAnswer> admitOnTheSpot(Asked asked) {
        Token token = this.tokens.issue(asked.productId(), this.visitors.next());
        EdgeAdmissions.Outcome outcome = this.admissions.admit(asked.productId(), token.userId());
        if (!outcome.admitted()) {
            return Optional.empty();
        }
        this.admittedOnTheSpot.increment();
        String admission = this.signer.sign(token, outcome.expiresAt());
        return Optional.of(EdgeAnswer.passWith(cookie(asked, admission, outcome.expiresAt())));
    }

    private EdgeAnswer toLine(Asked asked, Optional<QueueSettings> settings) {
        this.sentToLine.increment();
        StringBuilder page = new StringBuilder(this.properties.waitingRoomUrl()).append("/queues/")
            .append(asked.productId());
        if (asked.host() != null && asked.target() != null && settings.isPresent()
                && settings.get().returnsTo(asked.host())) {
            String url = (asked.https() ? "https://" : "http://") + asked.host() + asked.target().target();
            if (url.length() <= ReturnUrls.MAX_LENGTH) {
                page.append("?return=").append(ReturnUrls.encode(url));
            }
        }
        return EdgeAnswer.toLine(page.toString());
    }

    /** The proxy's cookie: only its own site reads it, never a script, and it ends with the admission. */
    private String cookie(Asked asked, String admission, long expiresAt) {
        long maxAge = Math.max(0, (expiresAt - System.currentTimeMillis()) / 1000);
        return cookieName(asked.productId()) + "=" + admission + "; Path=/; Max-Age=" + maxAge
                + "; HttpOnly; SameSite=Lax" + (asked.https() ? "; Secure" : "");
    }
}
