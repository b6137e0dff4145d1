package io.queuegate.ingest.enter;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import io.queuegate.core.token.TokenProperties;
import io.queuegate.web.ApiException;
import org.altcha.altcha.Altcha;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProofOfWorkTests {

    private static final String SECRET = "proof-of-work-tests-secret";

    private final ProofOfWork proofOfWork = new ProofOfWork(new TokenProperties(SECRET, null, "queuegate"),
            new ChallengeProperties(Duration.ofMinutes(10), 1000));

    @Test
    void aSolvedChallengeEntersItsUserOnceInItsLine() {
        String proof = solved(this.proofOfWork, 42, "alice");
        this.proofOfWork.spend(42, "alice", proof);
        assertRefused(() -> this.proofOfWork.spend(42, "alice", proof), "proof_invalid");
    }

    @Test
    void aProofIsNoGoodForAnotherUserOrLine() {
        String proof = solved(this.proofOfWork, 42, "alice");
        assertRefused(() -> this.proofOfWork.spend(42, "bob", proof), "proof_invalid");
        assertRefused(() -> this.proofOfWork.spend(43, "alice", proof), "proof_invalid");
        // refused for another, it is still good for its own
        this.proofOfWork.spend(42, "alice", proof);
    }

    @Test
    void aChallengeForAnyonePaysForOneEnterOfWhoeverSolvedIt() {
        String proof = solved(this.proofOfWork, 42, ProofOfWork.ANYONE);
        assertRefused(() -> this.proofOfWork.spend(43, null, proof), "proof_invalid");
        this.proofOfWork.spend(42, null, proof);
        assertRefused(() -> this.proofOfWork.spend(42, "bob", proof), "proof_invalid");
        this.proofOfWork.spend(42, "bob", solved(this.proofOfWork, 42, ProofOfWork.ANYONE));
        // one fetched for a named user is not a visitor's, whose id did not exist when it was fetched
        assertRefused(() -> this.proofOfWork.spend(42, null, solved(this.proofOfWork, 42, "alice")),
                "proof_invalid");
    }

    @Test
    void anEnterThatFailedAfterAllGivesItsProofBack() {
        String proof = solved(this.proofOfWork, 42, "alice");
        long spent = this.proofOfWork.spend(42, "alice", proof);
        this.proofOfWork.giveBack(spent);
        this.proofOfWork.spend(42, "alice", proof);
    }

    @Test
    void anExpiredProofOrOneSignedWithAnotherKeyIsRefused() {
        Challenge expired = this.proofOfWork.challenge(42, "alice", 5_000, Instant.now().minusSeconds(5));
        assertRefused(() -> this.proofOfWork.spend(42, "alice", encoded(solution(expired))), "proof_invalid");
        ProofOfWork otherKey = new ProofOfWork(new TokenProperties("another-deployments-secret", null, "queuegate"),
                new ChallengeProperties(Duration.ofMinutes(10), 1000));
        assertRefused(() -> this.proofOfWork.spend(42, "alice", solved(otherKey, 42, "alice")), "proof_invalid");
    }

    @Test
    void hostileProofsAreRefusedAsInvalidNeverAsAFailure() {
        assertRefused(() -> this.proofOfWork.spend(42, "alice", null), "proof_required");
        assertRefused(() -> this.proofOfWork.spend(42, "alice", ""), "proof_required");
        Map<String, Object> good = payload(this.proofOfWork, 42, "alice");
        String[] hostile = {
            "not base64 at all!", base64("not json"), base64("[]"), base64("null"), base64("{}"),
            base64("{\"algorithm\":\"SHA-256\",\"number\":99999999999999999999999999}"),
            encoded(with(good, "number", -1)), encoded(with(good, "number", 1e30)),
            encoded(with(good, "number", "12")), encoded(with(good, "algorithm", "SHA-1")),
            encoded(with(good, "algorithm", "none")), encoded(with(good, "signature", "00")),
            encoded(with(good, "challenge", "ab")), encoded(with(good, "challenge", "zz".repeat(32))),
            encoded(with(good, "salt", good.get("salt").toString().replace("user=alice", "user=bob"))),
            encoded(with(good, "salt", "?expires=99999999999&product=42&user=alice")),
            encoded(with(good, "number", ((Number) good.get("number")).longValue() + 1)),
        };
        for (String proof : hostile) {
            assertRefused(() -> this.proofOfWork.spend(42, "alice", proof), "proof_invalid");
        }
        // none of them used up the good one
        this.proofOfWork.spend(42, "alice", encoded(good));
    }

    /** The proof a client would send: the challenge solved by ALTCHA's own solver. */
    static String solved(ProofOfWork issuer, long productId, String userId) {
        return encoded(payload(issuer, productId, userId));
    }

    private static Map<String, Object> payload(ProofOfWork issuer, long productId, String userId) {
        return solution(issuer.challenge(productId, userId, 5_000));
    }

    private static Map<String, Object> solution(Challenge challenge) {
        try {
            Altcha.Solution solution = Altcha.solveChallenge(challenge.challenge(), challenge.salt(),
                    Altcha.Algorithm.SHA256, challenge.maxnumber(), 0);
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("algorithm", challenge.algorithm());
            payload.put("challenge", challenge.challenge());
            payload.put("number", solution.number);
            payload.put("salt", challenge.salt());
            payload.put("signature", challenge.signature());
            return payload;
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static Map<String, Object> with(Map<String, Object> payload, String field, Object value) {
        Map<String, Object> changed = new LinkedHashMap<>(payload);
        changed.put(field, value);
        return changed;
    }

    private static String encoded(Map<String, Object> payload) {
        return base64(JsonMapper.shared().writeValueAsString(payload));
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertRefused(Runnable spend, String code) {
        assertThatThrownBy(spend::run).isInstanceOfSatisfying(ApiException.class, (refusal) -> {
            assertThat(refusal.status().value()).isEqualTo(403);
            assertThat(refusal.code()).isEqualTo(code);
        });
    }
}
