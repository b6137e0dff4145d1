package io.queuegate.system;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator revokes places through the running stack: an admitted one (its slot goes to the next in line and the
 * gate refuses it) and a waiting one; both become EXPIRED, are audited as REVOKED, and are in the leaves topic.
 */
class RevocationSystemTests extends StackTests {

    private final long productId = ownProduct();

    @Test
    void theOperatorRevokesAnAdmittedAndAWaitingPlace() {
        this.stack.configure(this.productId, 1, 1000, 600, true);
        this.stack.setStock(this.productId, 5);
        List<String> tokens = entered(this.productId, List.of("revoke-a", "revoke-b", "revoke-c"));
        awaitStatus(this.productId, tokens.get(0), "AVAILABLE");
        awaitStatus(this.productId, tokens.get(2), "WAITING");

        assertThat(revoke(tokens.get(0), null).status()).isEqualTo(401);
        Reply forged = revoke(tokens.get(0).substring(0, tokens.get(0).length() - 2) + "AA", Stack.ADMIN_TOKEN);
        assertThat(forged.status()).isEqualTo(400);
        assertThat(forged.text("code")).isEqualTo("invalid_token");

        assertThat(revoke(tokens.get(0), Stack.ADMIN_TOKEN).status()).isEqualTo(204);
        assertThat(statusOf(this.productId, tokens.get(0))).isEqualTo("EXPIRED");
        Reply refused = this.stack.book(this.productId, tokens.get(0));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.text("code")).isEqualTo("token_not_admitted");
        // the slot is free: the next in line is admitted
        awaitStatus(this.productId, tokens.get(1), "AVAILABLE");

        assertThat(revoke(tokens.get(2), Stack.ADMIN_TOKEN).status()).isEqualTo(204);
        assertThat(statusOf(this.productId, tokens.get(2))).isEqualTo("EXPIRED");
        // again: nothing left to change
        assertThat(revoke(tokens.get(2), Stack.ADMIN_TOKEN).status()).isEqualTo(204);
        assertThat(this.stack.book(this.productId, tokens.get(1)).status()).isEqualTo(201);

        List<String> revoked = new ArrayList<>();
        List<String> leaves = new ArrayList<>();
        this.stack.readFromStart(List.of("queuegate.audit", "queuegate.leaves"), this.productId, (record) -> {
            JsonNode event = JsonMapper.shared().readTree(record.value());
            if (record.topic().equals("queuegate.leaves")) {
                leaves.add(event.get("userId").asString());
            }
            else if (event.get("type").asString().equals("REVOKED")) {
                event.get("tokens").forEach((token) -> revoked.add(token.asString()));
            }
        }, () -> revoked.size() >= 2 && leaves.size() >= 3);
        assertThat(revoked).containsExactly(tokens.get(0), tokens.get(2));
        // stored before it was applied, each time it was asked for: a Redis that loses the sale keeps them out
        assertThat(leaves).containsExactly("revoke-a", "revoke-c", "revoke-c");
    }

    private Reply revoke(String token, String adminToken) {
        return this.stack.send("DELETE", Stack.url(this.stack.worker,
                "/api/v1/queues/" + this.productId + "/entries/" + token), null, null,
                adminToken == null ? Map.of() : Map.of("Authorization", "Bearer " + adminToken));
    }
}
