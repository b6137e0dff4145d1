package io.queuegate.ingest.enter;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.queue.Identity;
import io.queuegate.core.queue.QueueSettings;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.token.Lane;
import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A place is had only by the person it was made for, in each of a queue's identities: the server makes a visitor's
 * id, only the enter key names a shop's user, only a pass names its subject; and the holder of a token keeps the
 * place by entering with it again.
 */
class IdentityHttpTests extends IngestHttpTestSupport {

    private final TokenCodec codec = new TokenCodec(TOKEN_SECRET);

    @Test
    void aVisitorEntersWithAnEmptyBodyAndGetsAnIdTheServerMade() {
        long product = queue(Identity.VISITOR, null);

        JsonNode first = accepted(enter(product, "{}", Map.of()));
        JsonNode second = accepted(enter(product, "{}", Map.of()));

        String userId = first.get("userId").asString();
        assertThat(userId).hasSizeGreaterThanOrEqualTo(22).matches("[A-Za-z0-9_-]+");
        assertThat(second.get("userId").asString()).isNotEqualTo(userId);
        assertThat(this.codec.verify(first.get("token").asString(), product)).map(Token::userId).hasValue(userId);
        assertThat(first.get("token").asString()).isNotEqualTo(second.get("token").asString());
    }

    @Test
    void aVisitorKeepsThePlaceByEnteringAgainWithTheTokenAndCannotNameAUser() {
        long product = queue(Identity.VISITOR, null);
        JsonNode first = accepted(enter(product, "{}", Map.of()));
        String token = first.get("token").asString();

        JsonNode again = accepted(enter(product, "{\"token\":\"" + token + "\"}", Map.of()));
        assertThat(again.get("token").asString()).isEqualTo(token);
        assertThat(again.get("userId").asString()).isEqualTo(first.get("userId").asString());

        HttpResponse<String> named = enter(product, "{\"userId\":\"" + first.get("userId").asString() + "\"}",
                Map.of("Authorization", "Bearer " + ENTER_KEY));
        assertThat(named.statusCode()).isEqualTo(400);
        assertThat(code(named)).isEqualTo("user_id_not_accepted");
        assertThat(named.body()).doesNotContain(token);

        String forged = token.substring(0, token.length() - 3) + (token.endsWith("AAA") ? "BBB" : "AAA");
        assertThat(code(enter(product, "{\"token\":\"" + forged + "\"}", Map.of()))).isEqualTo("invalid_token");
        String ofAnotherLine = this.codec.issue(product + 1, first.get("userId").asString()).value();
        assertThat(code(enter(product, "{\"token\":\"" + ofAnotherLine + "\"}", Map.of()))).isEqualTo("invalid_token");
        assertThat(enter(product, "{\"token\":\"" + token + "\",\"userId\":\"x\"}", Map.of()).statusCode())
            .isEqualTo(400);
    }

    @Test
    void aTrustedLineIsEnteredOnlyWithTheEnterKey() {
        long product = queue(Identity.TRUSTED, null);

        HttpResponse<String> bare = enter(product, "{\"userId\":\"bob\"}", Map.of());
        assertThat(bare.statusCode()).isEqualTo(401);
        assertThat(code(bare)).isEqualTo("enter_key_required");
        assertThat(bare.headers().allValues("WWW-Authenticate")).containsExactly("Bearer");
        // naming nobody is bad input, with or without the key
        HttpResponse<String> anonymous = enter(product, "{}", Map.of());
        assertThat(anonymous.statusCode()).isEqualTo(400);
        assertThat(code(anonymous)).isEqualTo("user_id_required");
        HttpResponse<String> wrong = enter(product, "{\"userId\":\"bob\"}",
                Map.of("Authorization", "Bearer " + ADMIN_TOKEN));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(code(wrong)).isEqualTo("enter_key_invalid");
        assertThat(wrong.headers().allValues("WWW-Authenticate")).containsExactly("Bearer");

        Map<String, String> key = Map.of("Authorization", "Bearer " + ENTER_KEY);
        JsonNode bob = accepted(enter(product, "{\"userId\":\"bob\"}", key));
        assertThat(bob.get("userId").asString()).isEqualTo("bob");
        assertThat(accepted(enter(product, "{\"userId\":\"bob\"}", key)).get("token").asString())
            .isEqualTo(bob.get("token").asString());
        assertThat(code(enter(product, "{}", key))).isEqualTo("user_id_required");
        // the holder of the token keeps the place without the key
        assertThat(accepted(enter(product, "{\"token\":\"" + bob.get("token").asString() + "\"}", Map.of()))
            .get("token").asString()).isEqualTo(bob.get("token").asString());
    }

    @Test
    void aPassLineTakesItsUserFromThePass() throws JOSEException {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID("shop").generate();
        long product = queue(Identity.PASS, shop);

        HttpResponse<String> none = enter(product, "{\"userId\":\"carol\"}", Map.of());
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(code(none)).isEqualTo("pass_required");

        String pass = pass(shop, "carol", product, null);
        JsonNode carol = accepted(enter(product, "{\"pass\":\"" + pass + "\"}", Map.of()));
        assertThat(carol.get("userId").asString()).isEqualTo("carol");
        assertThat(accepted(enter(product, "{\"pass\":\"" + pass(shop, "carol", product, null) + "\"}", Map.of()))
            .get("token").asString()).isEqualTo(carol.get("token").asString());

        HttpResponse<String> other = enter(product, "{\"userId\":\"dave\",\"pass\":\"" + pass + "\"}", Map.of());
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(code(other)).isEqualTo("pass_invalid");

        String priority = pass(shop, "erin", product, "priority");
        String token = accepted(enter(product, "{\"pass\":\"" + priority + "\"}", Map.of())).get("token").asString();
        assertThat(this.codec.verify(token, product)).map(Token::lane).hasValue(Lane.PRIORITY);
    }

    /**
     * A pass is good from its {@code nbf} and for no longer than {@code queuegate.ingest.max-pass-lifetime} (a day):
     * one valid for a year, or not valid for another hour, is refused like a forged one, and writes nothing.
     */
    @Test
    void aPassValidTooLongOrNotYetIsRefused() throws JOSEException {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID("shop").generate();
        long product = queue(Identity.PASS, shop);
        long now = System.currentTimeMillis();

        HttpResponse<String> forAYear = enter(product, "{\"pass\":\"" + pass(shop, "frank", product, null,
                now + Duration.ofDays(365).toMillis(), null) + "\"}", Map.of());
        assertThat(forAYear.statusCode()).as(forAYear.body()).isEqualTo(403);
        assertThat(code(forAYear)).isEqualTo("pass_invalid");
        HttpResponse<String> notYet = enter(product, "{\"pass\":\"" + pass(shop, "frank", product, null,
                now + 600_000, now + Duration.ofHours(1).toMillis()) + "\"}", Map.of());
        assertThat(notYet.statusCode()).as(notYet.body()).isEqualTo(403);
        assertThat(code(notYet)).isEqualTo("pass_invalid");

        // a day less a minute, valid since a minute ago: taken
        accepted(enter(product, "{\"pass\":\"" + pass(shop, "frank", product, null,
                now + Duration.ofDays(1).minusMinutes(1).toMillis(), now - 60_000) + "\"}", Map.of()));
    }

    @Test
    void aVisitorLineLetsAPassHolderEnterAsThePassSubject() throws JOSEException {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID("shop").generate();
        long product = queue(Identity.VISITOR, shop);

        JsonNode holder = accepted(enter(product, "{\"pass\":\"" + pass(shop, "vip-1", product, "priority") + "\"}",
                Map.of()));

        assertThat(holder.get("userId").asString()).isEqualTo("vip-1");
        assertThat(this.codec.verify(holder.get("token").asString(), product)).map(Token::lane)
            .hasValue(Lane.PRIORITY);
    }

    private long queue(Identity identity, ECKey passKey) {
        long product = newProduct();
        List<Map<String, Object>> keys = passKey == null ? null : List.of(passKey.toPublicJWK().toJSONObject());
        new QueueStore(this.redis).save(product, new QueueSettings(10, 10, 60, true, null, null, null, null, null,
                keys, null, null, null, identity));
        return product;
    }

    private static String pass(ECKey key, String subject, long product, String lane) throws JOSEException {
        return pass(key, subject, product, lane, System.currentTimeMillis() + 600_000, null);
    }

    /** @param notBefore the pass's {@code nbf}, epoch milliseconds; null for none */
    private static String pass(ECKey key, String subject, long product, String lane, long expiresAt, Long notBefore)
            throws JOSEException {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject)
            .claim(PassVerifier.PRODUCT, product)
            .expirationTime(new Date(expiresAt))
            .notBeforeTime(notBefore == null ? null : new Date(notBefore));
        if (lane != null) {
            claims.claim(PassVerifier.LANE, lane);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(),
                claims.build());
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }

    private static JsonNode accepted(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JsonMapper.shared().readTree(response.body());
    }

    private static String code(HttpResponse<String> response) {
        JsonNode code = JsonMapper.shared().readTree(response.body()).get("code");
        return code == null ? null : code.asString();
    }

    private HttpResponse<String> enter(long product, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + this.port + "/api/v1/queues/" + product + "/entries"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request);
    }
}
