package io.queuegate.core.queue;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * How one product's line moves. The last three settings are optional: left out (null), the line behaves as it
 * did before they existed.
 *
 * @param maxActive how many admitted users may hold an entry at once
 * @param admitPerSecond how many users are admitted per second at most
 * @param entryTtlSeconds how long an admitted user may take to book
 * @param open whether new users may enter the line
 * @param maxPollsPerSecond the status polls per second everyone waiting may make together, polling as told; a user
 *        polling far faster than told is answered 429. Null: polls are not budgeted
 * @param abandonAfterSeconds a waiting user who has not polled for this long loses the place. Null: never
 * @param opensAt epoch milliseconds the sale opens: nobody is admitted before, and everyone the line holds by then
 *        is placed in a random order published with its seed (docs/DESIGN.md, "Fair start"). Null: open at once,
 *        in arrival order
 * @param challengeMaxNumber proof of work at join: the largest secret number of the ALTCHA challenge an enter must
 *        solve (the work is half of it, on average, SHA-256 hashes). Null or 0: no proof asked
 * @param inviteOnly whether an enter must carry a pass signed by one of {@code passKeys}. Null: false
 * @param passKeys the public keys (JWKs, EC P-256) of the shop's backend that signs passes: an invitation to an
 *        invite-only queue, or a place in the priority lane. Null: the queue takes no passes
 * @param passJwksUri instead of {@code passKeys}, where the shop publishes them: a JWK set's URL, fetched by ingest
 *        and read again every minute, so a shop rotates its keys without touching the queue. Null: none
 * @param webhookUrl where the shop is told, by a signed POST, that a user's turn has come (the token became
 *        AVAILABLE), so it can tell the user by mail or push. Null: nobody is told
 * @param webhookSecret the key the webhook's events are signed with (HMAC-SHA256); given with {@code webhookUrl},
 *        or left out to keep the one stored. Stored with the other settings (Redis and the sale topic) and never
 *        answered back
 * @param identity who the queue's places belong to ({@link Identity}). Null: {@code pass} for an invite-only queue,
 *        else {@code visitor}, so a setting written before it existed keeps meaning what it meant
 * @param returnHosts the hosts (with their port when not the scheme's) of the sites a proxy protects with this queue
 *        (docs/OPERATIONS.md, "Protect a site"): the waiting page sends people back only to a URL on one of them, and
 *        the edge check only to those. Null: nobody is sent back anywhere
 */
public record QueueSettings(
        @Schema(example = "1000") @NotNull @Min(1) @Max(10_000_000) Integer maxActive,
        @Schema(example = "200") @NotNull @Min(1) @Max(1_000_000) Integer admitPerSecond,
        @Schema(example = "1200") @NotNull @Min(1) @Max(86_400) Integer entryTtlSeconds,
        @Schema(example = "true") @NotNull Boolean open,
        @Schema(example = "2000", nullable = true, description = """
                Status polls per second that everyone waiting may make together; pollAfterMs grows with position to \
                stay under it, and a client polling far faster than told gets 429. Unset: no budget""")
        @Min(1) @Max(10_000_000) Integer maxPollsPerSecond,
        @Schema(example = "120", nullable = true, description = """
                A waiting user who has not polled for this many seconds loses the place (status EXPIRED) and everyone \
                behind moves up. Unset: never""")
        @Min(10) @Max(86_400) Integer abandonAfterSeconds,
        @Schema(example = "1767261600000", nullable = true, description = """
                Epoch milliseconds the sale opens. Until then entering is allowed but nobody is admitted, and polls \
                say WAITING with position null and opensAt; at the opening everyone already in line is placed in a \
                random order drawn from a seed published then (GET queue: seed; audit: SHUFFLED). Unset: open at once, \
                in arrival order""")
        @Min(0) @Max(32_503_680_000_000L) Long opensAt,
        @Schema(example = "50000", nullable = true, description = """
                Proof of work at join: an enter must carry the solution (proof) of an ALTCHA challenge (GET \
                .../challenge) whose secret number is at most this; a browser takes about 0.5 s for 50,000. Unset or \
                0: no proof asked""")
        @Min(0) @Max(10_000_000) Integer challengeMaxNumber,
        @Schema(example = "false", nullable = true, description = """
                Kept for older callers: true is identity "pass" (every enter carries a pass signed by one of \
                passKeys; others are answered 403 pass_required). Unset: false""")
        Boolean inviteOnly,
        @Schema(nullable = true, description = """
                Public JWKs (EC P-256, ES256) of the shop's backend that signs passes: JWS with sub (the user id), \
                product, exp and optionally lane "priority", given at enter as pass. A priority pass places the user \
                in a lane admitted before the general line. 1 to 10 keys, public only. Unset: the queue takes no \
                passes""")
        List<Map<String, Object>> passKeys,
        @Schema(example = "https://shop.example/.well-known/jwks.json", nullable = true, description = """
                Instead of passKeys: the https URL of the JWK set the shop's backend publishes its pass keys in, at a \
                public address, answering without a redirect (plain http and private addresses only where the \
                deployment allows them, queuegate.egress.*). Ingest reads it again every minute and uses its public EC \
                P-256 keys, so a rotation needs no change here: publish the new key a minute before signing with it. \
                Unset: passKeys, if any""")
        @Size(max = QueueSettings.MAX_URI_LENGTH) String passJwksUri,
        @Schema(example = "https://shop.example/queuegate/events", nullable = true, description = """
                The https URL, at a public address, the shop's backend takes events at (plain http and private \
                addresses only where the deployment allows them, queuegate.egress.*): when a user's turn comes (status \
                AVAILABLE), an entry.available event is POSTed to it, signed with webhookSecret (header \
                Queuegate-Signature), at least once; a redirect is not followed. Unset: no events""")
        @Size(max = QueueSettings.MAX_URI_LENGTH) String webhookUrl,
        @Schema(nullable = true, writeOnly = true, minLength = QueueSettings.MIN_WEBHOOK_SECRET_LENGTH,
                description = """
                        The key the events sent to webhookUrl are signed with (HMAC-SHA256), at least 16 characters; \
                        needed with webhookUrl. Left out while the queue has one, the stored one is kept. Never \
                        answered back: a queue's answers say webhookSecretSet""")
        @Size(min = QueueSettings.MIN_WEBHOOK_SECRET_LENGTH, max = 256) String webhookSecret,
        @Schema(example = "visitor", nullable = true, allowableValues = {"visitor", "trusted", "pass"},
                type = "string", description = """
                Who the places belong to. "visitor": the server makes each user id (128 random bits) and an enter \
                names none; re-entering with one's token keeps the place. "trusted": the shop's backend enters its \
                logged-in users by userId with an enter key (Authorization: Bearer). "pass": every enter carries a \
                pass the shop signed (passKeys or passJwksUri), whose subject is the user id. Unset: "pass" when \
                inviteOnly is true, else "visitor\"""")
        Identity identity,
        @Schema(example = "[\"shop.example\", \"shop.example:8443\"]", nullable = true, description = """
                The hosts of the sites a proxy (nginx, HAProxy) protects with this queue: a host name or address, with \
                its port when it is not the scheme's, 1 to 20 of them. The waiting page sends a person back, with \
                their admission, only to an http(s) URL on one of them, and the edge check only there; anything else \
                (another host, javascript:, //evil) is refused. Unset: nobody is sent back""")
        @Size(min = 1, max = QueueSettings.MAX_RETURN_HOSTS) List<@Pattern(
                regexp = QueueSettings.RETURN_HOST) String> returnHosts) {

    /** The most {@code returnHosts} a queue takes. */
    public static final int MAX_RETURN_HOSTS = 20;

    /**
     * What a return host looks like: a lower-case DNS name or IPv4 address, or a bracketed IPv6 address, with an
     * optional port. Nothing else (no scheme, path, user or wildcard), so that matching is an exact comparison.
     */
    public static final String RETURN_HOST = "^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*"
            + "|\\[[0-9a-f:.]{2,45}\\])(:[1-9][0-9]{0,4})?$";

    /** Settings without return hosts: a queue that no proxy sends people back from. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, Integer challengeMaxNumber,
            Boolean inviteOnly, List<Map<String, Object>> passKeys, String passJwksUri, String webhookUrl,
            String webhookSecret, Identity identity) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt,
                challengeMaxNumber, inviteOnly, passKeys, passJwksUri, webhookUrl, webhookSecret, identity, null);
    }

    /** A left-out identity takes its default: {@code pass} where the older {@code inviteOnly} says so. */
    public QueueSettings {
        if (identity == null) {
            identity = Boolean.TRUE.equals(inviteOnly) ? Identity.PASS : Identity.VISITOR;
        }
    }

    /** Settings in the default identity: whatever {@code inviteOnly} says, else {@code visitor}. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, Integer challengeMaxNumber,
            Boolean inviteOnly, List<Map<String, Object>> passKeys, String passJwksUri, String webhookUrl,
            String webhookSecret) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt,
                challengeMaxNumber, inviteOnly, passKeys, passJwksUri, webhookUrl, webhookSecret, null);
    }

    /** The longest {@code passJwksUri} and {@code webhookUrl} taken. */
    public static final int MAX_URI_LENGTH = 2048;

    /** The shortest {@code webhookSecret} taken: 16 characters, about what a guess must not find. */
    public static final int MIN_WEBHOOK_SECRET_LENGTH = 16;

    /** Settings without a webhook. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, Integer challengeMaxNumber,
            Boolean inviteOnly, List<Map<String, Object>> passKeys, String passJwksUri) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt,
                challengeMaxNumber, inviteOnly, passKeys, passJwksUri, null, null);
    }

    /** Settings with the pass keys given in them, not fetched from the shop. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, Integer challengeMaxNumber,
            Boolean inviteOnly, List<Map<String, Object>> passKeys) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt,
                challengeMaxNumber, inviteOnly, passKeys, null);
    }

    /** Settings without the optional ones: the line as it behaved before they existed. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, null, null, null, null, null, null);
    }

    /** Settings without proof of work. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt, null,
                null, null);
    }

    /** Settings without passes. */
    public QueueSettings(Integer maxActive, Integer admitPerSecond, Integer entryTtlSeconds, Boolean open,
            Integer maxPollsPerSecond, Integer abandonAfterSeconds, Long opensAt, Integer challengeMaxNumber) {
        this(maxActive, admitPerSecond, entryTtlSeconds, open, maxPollsPerSecond, abandonAfterSeconds, opensAt,
                challengeMaxNumber, null, null);
    }

    /** The same settings, closed to new entrants. */
    public QueueSettings closed() {
        return new QueueSettings(this.maxActive, this.admitPerSecond, this.entryTtlSeconds, false,
                this.maxPollsPerSecond, this.abandonAfterSeconds, this.opensAt, this.challengeMaxNumber,
                this.inviteOnly, this.passKeys, this.passJwksUri, this.webhookUrl, this.webhookSecret, this.identity,
                this.returnHosts);
    }

    /** The same settings without the webhook's secret: what may be answered back. */
    public QueueSettings withoutWebhookSecret() {
        return withWebhookSecret(null);
    }

    /** The same settings with this webhook secret. */
    public QueueSettings withWebhookSecret(String secret) {
        return new QueueSettings(this.maxActive, this.admitPerSecond, this.entryTtlSeconds, this.open,
                this.maxPollsPerSecond, this.abandonAfterSeconds, this.opensAt, this.challengeMaxNumber,
                this.inviteOnly, this.passKeys, this.passJwksUri, this.webhookUrl, secret, this.identity,
                this.returnHosts);
    }

    /** Whether the shop is told of each admission: a URL to post to, and a secret to sign with. */
    public boolean hasWebhook() {
        return this.webhookUrl != null && this.webhookSecret != null;
    }

    /** Whether an enter must carry a solved challenge. */
    public boolean asksForProof() {
        return this.challengeMaxNumber != null && this.challengeMaxNumber > 0;
    }

    /** Whether the queue takes passes: it has keys to verify them with, or knows where the shop publishes them. */
    public boolean takesPasses() {
        return this.passKeys != null || this.passJwksUri != null;
    }

    /** The same settings in this identity. */
    public QueueSettings withIdentity(Identity identity) {
        return new QueueSettings(this.maxActive, this.admitPerSecond, this.entryTtlSeconds, this.open,
                this.maxPollsPerSecond, this.abandonAfterSeconds, this.opensAt, this.challengeMaxNumber,
                this.inviteOnly, this.passKeys, this.passJwksUri, this.webhookUrl, this.webhookSecret, identity,
                this.returnHosts);
    }

    /** The same settings with these return hosts. */
    public QueueSettings withReturnHosts(List<String> hosts) {
        return new QueueSettings(this.maxActive, this.admitPerSecond, this.entryTtlSeconds, this.open,
                this.maxPollsPerSecond, this.abandonAfterSeconds, this.opensAt, this.challengeMaxNumber,
                this.inviteOnly, this.passKeys, this.passJwksUri, this.webhookUrl, this.webhookSecret, this.identity,
                hosts);
    }

    /** Whether a proxy may send people back to this host (and port): one of {@code returnHosts}, compared exactly. */
    public boolean returnsTo(String hostAndPort) {
        return this.returnHosts != null && hostAndPort != null && this.returnHosts.contains(hostAndPort);
    }

    /** Whether an enter must carry a pass: the queue is in identity {@code pass}. */
    public boolean requiresPass() {
        return this.identity == Identity.PASS;
    }
}
