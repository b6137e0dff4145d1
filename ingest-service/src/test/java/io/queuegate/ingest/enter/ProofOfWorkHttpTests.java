package io.queuegate.ingest.enter;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.altcha.altcha.Altcha;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A line that asks for proof of work, through the service: the challenge, enters without, with a good, a replayed,
 * another user's and a malformed proof, and what reached the log; and a challenge fetched for anyone, which pays for
 * one enter of a visitor, whose id does not exist before it enters.
 */
class ProofOfWorkHttpTests extends IngestHttpTestSupport {

    long product;

    @BeforeEach
    void openQueueWithProofOfWork() {
        this.product = newOpenQueue(1, 1);
        this.redis.opsForHash().put(QueueKeys.of(this.product).settings(), "challengeMaxNumber", "2000");
    }

    @Test
    void aChallengeFetchedForAnyonePaysForOneEnterOfAVisitor() {
        long visitors = newOpenQueue(1, 1, Identity.VISITOR);
        this.redis.opsForHash().put(QueueKeys.of(visitors).settings(), "challengeMaxNumber", "2000");

        HttpResponse<String> none = enter(visitors, "{}", false);
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(json(none).get("code").asString()).isEqualTo("proof_required");
        // one fetched for a named user is not a visitor's: its id did not exist when it was fetched
        String named = solve(json(get(this.port, "/api/v1/queues/" + visitors + "/challenge?userId=alice")));
        assertThat(json(enter(visitors, "{\"proof\":\"" + named + "\"}", false)).get("code").asString())
            .isEqualTo("proof_invalid");

        HttpResponse<String> fetched = get(this.port, "/api/v1/queues/" + visitors + "/challenge");
        assertThat(fetched.statusCode()).isEqualTo(200);
        String anyones = solve(json(fetched));
        HttpResponse<String> entered = enter(visitors, "{\"proof\":\"" + anyones + "\"}", false);
        assertThat(entered.statusCode()).isEqualTo(202);
        String token = json(entered).get("token").asString();
        HttpResponse<String> replayed = enter(visitors, "{\"proof\":\"" + anyones + "\"}", false);
        assertThat(replayed.statusCode()).isEqualTo(403);
        assertThat(json(replayed).get("code").asString()).isEqualTo("proof_invalid");
        // entering again with the token keeps the place the proof paid for, without another
        HttpResponse<String> again = enter(visitors, "{\"token\":\"" + token + "\"}", false);
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(json(again).get("token").asString()).isEqualTo(token);

        // one solution, one place: the log holds the visitor's token alone, of its enter and of its enter again
        assertThat(EnterLog.tokens(this.brokers, visitors)).containsExactly(token, token);
    }

    @Test
    void aChallengeFetchedForAnyonePaysForANamedUsersEnterOnce() {
        String anyones = solve(json(get(this.port, "/api/v1/queues/" + this.product + "/challenge")));

        assertThat(enter("bob", anyones).statusCode()).isEqualTo(202);
        HttpResponse<String> replayed = enter("carol", anyones);
        assertThat(replayed.statusCode()).isEqualTo(403);
        assertThat(json(replayed).get("code").asString()).isEqualTo("proof_invalid");
    }

    @Test
    void anEnterWithoutAGoodProofIsRefusedAndNothingIsWritten() {
        HttpResponse<String> none = enter("alice", null);
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json(none).get("code").asString()).isEqualTo("proof_required");

        String alices = solve(challenge("alice"));
        for (String proof : List.of(alices, "!!", base64("{\"number\":1e400}"), base64("{\"algorithm\":\"none\"}"))) {
            HttpResponse<String> refused = enter("bob", proof);
            assertThat(refused.statusCode()).as(proof).isEqualTo(403);
            assertThat(json(refused).get("code").asString()).isEqualTo("proof_invalid");
        }
        assertThat(enter("carol", "x".repeat(5000)).statusCode()).as("a proof longer than any").isIn(400, 413);

        HttpResponse<String> entered = enter("alice", alices);
        assertThat(entered.statusCode()).isEqualTo(202);
        HttpResponse<String> replayed = enter("alice", alices);
        assertThat(replayed.statusCode()).isEqualTo(403);
        assertThat(json(replayed).get("code").asString()).isEqualTo("proof_invalid");

        // one solution, one place: alice's one enter is all the log holds of this line
        TokenCodec codec = new TokenCodec(TOKEN_SECRET);
        assertThat(EnterLog.tokens(this.brokers, this.product))
            .containsExactly(codec.issue(this.product, "alice").value());
    }

    @Test
    void theChallengeIsForAUserOfALineThatAsksForOne() {
        JsonNode challenge = json(challengeAnswer("alice"));
        assertThat(challenge.get("algorithm").asString()).isEqualTo("SHA-256");
        assertThat(challenge.get("maxnumber").asLong()).isEqualTo(2000);
        assertThat(challenge.get("salt").asString()).contains("product=" + this.product).contains("user=alice")
            .contains("expires=");
        assertThat(challengeAnswer("alice").headers().firstValue("Cache-Control")).hasValueSatisfying(
                (value) -> assertThat(value).contains("no-store"));

        HttpResponse<String> anyone = get(this.port, "/api/v1/queues/" + this.product + "/challenge");
        assertThat(anyone.statusCode()).isEqualTo(200);
        assertThat(json(anyone).get("salt").asString()).contains("product=" + this.product).doesNotContain("alice");
        HttpResponse<String> badUser = get(this.port, "/api/v1/queues/" + this.product + "/challenge?userId=a%20b");
        assertThat(badUser.statusCode()).isEqualTo(400);
        assertThat(json(badUser).get("code").asString()).isEqualTo("invalid_request");
        HttpResponse<String> noQueue = get(this.port, "/api/v1/queues/" + (this.product + 1_000_000_000L)
                + "/challenge?userId=alice");
        assertThat(noQueue.statusCode()).isEqualTo(404);
        assertThat(json(noQueue).get("code").asString()).isEqualTo("queue_not_found");
        long plain = newOpenQueue(1, 1);
        HttpResponse<String> notAsked = get(this.port, "/api/v1/queues/" + plain + "/challenge?userId=alice");
        assertThat(notAsked.statusCode()).isEqualTo(404);
        assertThat(json(notAsked).get("code").asString()).isEqualTo("not_found");
    }

    private HttpResponse<String> challengeAnswer(String userId) {
        return get(this.port, "/api/v1/queues/" + this.product + "/challenge?userId=" + userId);
    }

    private JsonNode challenge(String userId) {
        HttpResponse<String> answer = challengeAnswer(userId);
        assertThat(answer.statusCode()).isEqualTo(200);
        return json(answer);
    }

    /** What the waiting page does: finds the number, then sends ALTCHA's payload. */
    private static String solve(JsonNode challenge) {
        try {
            Altcha.Solution solution = Altcha.solveChallenge(challenge.get("challenge").asString(),
                    challenge.get("salt").asString(), Altcha.Algorithm.SHA256, challenge.get("maxnumber").asLong(), 0);
            assertThat(solution).as("solved").isNotNull();
            return base64("{\"algorithm\":\"SHA-256\",\"challenge\":\"" + challenge.get("challenge").asString()
                    + "\",\"number\":" + solution.number + ",\"salt\":\"" + challenge.get("salt").asString()
                    + "\",\"signature\":\"" + challenge.get("signature").asString() + "\"}");
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The shop's backend entering its user in the product's line. */
    private HttpResponse<String> enter(String userId, String proof) {
        String body = proof == null ? "{\"userId\":\"" + userId + "\"}"
                : "{\"userId\":\"" + userId + "\",\"proof\":\"" + proof + "\"}";
        return enter(this.product, body, true);
    }

    private HttpResponse<String> enter(long product, String body, boolean withEnterKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + product + "/entries"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        return send(withEnterKey ? withEnterKey(request) : request);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JsonMapper.shared().readTree(response.body());
    }
}
