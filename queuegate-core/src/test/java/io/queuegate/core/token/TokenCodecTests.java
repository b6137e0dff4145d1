package io.queuegate.core.token;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TokenCodecTests {

    private static final String SECRET = "test-secret-0123456789abcdef";

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private static final Pattern URL_SAFE = Pattern.compile("^[A-Za-z0-9_-]+$");

    /** Every character a user id may hold, 64 of them. */
    private static final String LONGEST_USER = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@:-"
        .substring(0, UserIds.MAX_LENGTH);

    private final TokenCodec codec = new TokenCodec(SECRET);

    @Test
    void aPriorityTokenSaysItsLaneAndTheLaneCannotBeChangedWithoutTheSecret() {
        Token general = this.codec.issue(42, "alice");
        Token priority = this.codec.issue(42, "alice", Lane.PRIORITY);

        assertThat(general.lane()).isEqualTo(Lane.GENERAL);
        assertThat(priority.value()).isNotEqualTo(general.value());
        assertThat(this.codec.verify(priority.value())).contains(priority);
        assertThat(this.codec.verify(general.value()).orElseThrow().lane()).isEqualTo(Lane.GENERAL);

        byte[] bytes = Base64.getUrlDecoder().decode(general.value());
        bytes[0] = 2;
        String promoted = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertThat(this.codec.verify(promoted)).as("a general token turned priority").isEmpty();
        bytes[0] = 3;
        assertThat(this.codec.verify(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes))).isEmpty();
    }

    @Test
    void issuedTokenVerifiesToWhatWasIssued() {
        Token issued = this.codec.issue(42, "alice@example.com");

        assertThat(issued.productId()).isEqualTo(42);
        assertThat(issued.userId()).isEqualTo("alice@example.com");
        assertThat(this.codec.verify(issued.value())).contains(issued);
    }

    @Test
    void roundTripsAcrossVarintBoundariesAndEveryUserIdLength() {
        long[] productIds = { 1, 127, 128, 16_383, 16_384, 1L << 35, (1L << 56) - 1, 1L << 56, Long.MAX_VALUE - 1,
                Long.MAX_VALUE };
        for (long productId : productIds) {
            for (int length = 1; length <= UserIds.MAX_LENGTH; length++) {
                String userId = LONGEST_USER.substring(0, length);
                Token issued = this.codec.issue(productId, userId);
                Optional<Token> verified = this.codec.verify(issued.value());
                assertThat(verified).as("product %d, user %s", productId, userId).contains(issued);
                assertThat(verified.get().productId()).isEqualTo(productId);
                assertThat(verified.get().userId()).isEqualTo(userId);
            }
        }
    }

    @Test
    void longestTokenFitsTheLimit() {
        assertThat(LONGEST_USER).hasSize(64);
        assertThat(UserIds.isValid(LONGEST_USER)).isTrue();

        Token issued = this.codec.issue(Long.MAX_VALUE, LONGEST_USER);

        assertThat(issued.value().length()).isLessThanOrEqualTo(TokenCodec.MAX_TOKEN_LENGTH).isLessThanOrEqualTo(128);
        assertThat(this.codec.verify(issued.value())).contains(issued);
    }

    @Test
    void tokensUseOnlyTheUrlSafeAlphabetWithoutPadding() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            long productId = 1 + (random.nextLong() & Long.MAX_VALUE) % (Long.MAX_VALUE - 1);
            String userId = randomUserId(random);
            String token = this.codec.issue(productId, userId).value();
            assertThat(token).matches(URL_SAFE).doesNotContain("=", "+", "/");
            assertThat(token.length()).isLessThanOrEqualTo(TokenCodec.MAX_TOKEN_LENGTH);
        }
    }

    @Test
    void sameProductAndUserGiveTheSameToken() {
        String first = this.codec.issue(7, "bob").value();

        assertThat(this.codec.issue(7, "bob").value()).isEqualTo(first);
        assertThat(new TokenCodec(SECRET).issue(7, "bob").value()).isEqualTo(first);
        assertThat(this.codec.issue(8, "bob").value()).isNotEqualTo(first);
        assertThat(this.codec.issue(7, "bob2").value()).isNotEqualTo(first);
        assertThat(this.codec.issue(7, "Bob").value()).isNotEqualTo(first);
    }

    @Test
    void distinctPlacesGetDistinctTokens() {
        Set<String> tokens = new HashSet<>();
        for (long productId = 1; productId <= 50; productId++) {
            for (int user = 0; user < 50; user++) {
                tokens.add(this.codec.issue(productId, "user-" + user).value());
            }
        }
        assertThat(tokens).hasSize(2_500);
    }

    @Test
    void tokenOfAnotherSecretIsRejected() {
        TokenCodec other = new TokenCodec("another-secret-0123456789");
        Token ours = this.codec.issue(42, "alice");
        Token theirs = other.issue(42, "alice");

        assertThat(theirs.value()).isNotEqualTo(ours.value());
        assertThat(this.codec.verify(theirs.value())).isEmpty();
        assertThat(other.verify(ours.value())).isEmpty();
        assertThat(other.verify(theirs.value())).contains(theirs);
    }

    @Test
    void changingAnySingleCharacterIsRejected() {
        // different lengths leave 0, 2 or 4 unused bits in the last character, so the last position is covered
        // by the MAC and by the canonical-spelling check alike
        List<Token> tokens = List.of(this.codec.issue(42, "alice"), this.codec.issue(42, "al"),
                this.codec.issue(42, "ali"), this.codec.issue(1, "x"), this.codec.issue(Long.MAX_VALUE, LONGEST_USER));
        int tried = 0;
        for (Token issued : tokens) {
            String token = issued.value();
            for (int position = 0; position < token.length(); position++) {
                for (char replacement : (ALPHABET + "=+/.~ ").toCharArray()) {
                    if (replacement == token.charAt(position)) {
                        continue;
                    }
                    String tampered = token.substring(0, position) + replacement + token.substring(position + 1);
                    assertThat(this.codec.verify(tampered)).as("%s at %d", replacement, position).isEmpty();
                    tried++;
                }
            }
        }
        assertThat(tried).isGreaterThan(10_000);
    }

    @Test
    void truncatedTokensAreRejected() {
        String token = this.codec.issue(Long.MAX_VALUE, LONGEST_USER).value();
        for (int length = 0; length < token.length(); length++) {
            assertThat(this.codec.verify(token.substring(0, length))).as("prefix of %d", length).isEmpty();
            assertThat(this.codec.verify(token.substring(token.length() - length))).as("suffix of %d", length)
                .isEmpty();
        }
    }

    @Test
    void extendedTokensAreRejected() {
        for (String token : List.of(this.codec.issue(42, "alice").value(),
                this.codec.issue(Long.MAX_VALUE, LONGEST_USER).value())) {
            for (char extra : ALPHABET.toCharArray()) {
                assertThat(this.codec.verify(token + extra)).isEmpty();
                assertThat(this.codec.verify(extra + token)).isEmpty();
                assertThat(this.codec.verify(token + extra + extra)).isEmpty();
                assertThat(this.codec.verify(token + "AAAA")).isEmpty();
            }
            assertThat(this.codec.verify(token + "=")).isEmpty();
            assertThat(this.codec.verify(token + "==")).isEmpty();
            assertThat(this.codec.verify(token + " ")).isEmpty();
            assertThat(this.codec.verify(" " + token)).isEmpty();
            assertThat(this.codec.verify(token + "\n")).isEmpty();
            assertThat(this.codec.verify(token + token)).isEmpty();
        }
    }

    @Test
    void paddedSpellingOfAValidTokenIsRejected() {
        String token = this.codec.issue(42, "alice").value();
        String padded = Base64.getUrlEncoder().encodeToString(Base64.getUrlDecoder().decode(token));
        assertThat(padded).isNotEqualTo(token).endsWith("=");

        assertThat(this.codec.verify(padded)).isEmpty();
    }

    @Test
    void handBuiltTokenWithOurKeyVerifies() throws Exception {
        // the format as documented: version 1 | varint product | user id | first 16 bytes of HMAC-SHA256
        String handBuilt = sign(new byte[] { 1, (byte) 0xAC, 0x02 }, "alice");

        assertThat(handBuilt).isEqualTo(this.codec.issue(300, "alice").value());
        assertThat(this.codec.verify(handBuilt)).contains(new Token(300, "alice", handBuilt));
    }

    @Test
    void signedContentOfAnotherVersionIsRejected() throws Exception {
        // 1 and 2 are the general line and the priority lane
        assertThat(this.codec.verify(sign(new byte[] { 3, 42 }, "alice"))).isEmpty();
        assertThat(this.codec.verify(sign(new byte[] { 0, 42 }, "alice"))).isEmpty();
    }

    @Test
    void signedContentThatIsNotAValidPlaceIsRejected() throws Exception {
        // product 0
        assertThat(this.codec.verify(sign(new byte[] { 1, 0 }, "alice"))).isEmpty();
        // a user id issue() would refuse
        assertThat(this.codec.verify(sign(new byte[] { 1, 42 }, "a b"))).isEmpty();
        assertThat(this.codec.verify(sign(new byte[] { 1, 42 }, "x".repeat(65)))).isEmpty();
        // a varint that never ends
        assertThat(this.codec.verify(sign(new byte[] { 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF }, ""))).isEmpty();
    }

    private static String sign(byte[] head, String userId) throws Exception {
        byte[] user = userId.getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[head.length + user.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(user, 0, body, head.length, user.length);
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] tag = mac.doFinal(body);
        byte[] token = new byte[body.length + 16];
        System.arraycopy(body, 0, token, 0, body.length);
        System.arraycopy(tag, 0, token, body.length, 16);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { " ", "A", "AA", "AAAA", "!!!!", "====", "not a token", "abc+def/ghi=",
            "AQAAAAAAAAAAAAAAAAAAAAAAAAAA", "Zm9vYmFy", "%41%42%43" })
    void garbageIsRejected(String token) {
        assertThat(this.codec.verify(token)).isEmpty();
    }

    @Test
    void randomBytesAreRejectedEvenWithTheRightVersionByte() {
        Random random = new Random(11);
        for (int i = 0; i < 5_000; i++) {
            byte[] bytes = new byte[19 + random.nextInt(70)];
            random.nextBytes(bytes);
            bytes[0] = 1;
            bytes[1] = (byte) (1 + random.nextInt(127));
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            assertThat(this.codec.verify(token)).isEmpty();
        }
    }

    @Test
    void overLongTokensAreRejected() {
        assertThat(this.codec.verify("A".repeat(TokenCodec.MAX_TOKEN_LENGTH + 1))).isEmpty();
        assertThat(this.codec.verify("A".repeat(1_000_000))).isEmpty();
        String token = this.codec.issue(Long.MAX_VALUE, LONGEST_USER).value();
        assertThat(this.codec.verify(token + "A".repeat(TokenCodec.MAX_TOKEN_LENGTH))).isEmpty();
    }

    @Test
    void verifiedTokenNamesTheProductItWasIssuedFor() {
        Token forA = this.codec.issue(1001, "carol");
        Token forB = this.codec.issue(1002, "carol");

        assertThat(this.codec.verify(forA.value())).map(Token::productId).contains(1001L);
        assertThat(this.codec.verify(forB.value())).map(Token::productId).contains(1002L);
        assertThat(forA.value()).isNotEqualTo(forB.value());
    }

    @Test
    void verifyForAProductAcceptsOnlyAGenuineTokenOfThatProduct() {
        Token forA = this.codec.issue(1001, "carol");
        Token forB = this.codec.issue(1002, "carol");
        Token forged = new TokenCodec("another-secret-0123456789").issue(1001, "carol");

        assertThat(this.codec.verify(forA.value(), 1001)).contains(forA);
        assertThat(this.codec.verify(forB.value(), 1001)).isEmpty();
        assertThat(this.codec.verify(forged.value(), 1001)).isEmpty();
        assertThat(this.codec.verify(null, 1001)).isEmpty();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { " ", "a b", "a/b", "a\n", "\nabc", "ü", "a#b", "a{b}", "a\"b", "tab\there",
            "00000000001111111111222222222233333333334444444444555555555566666" })
    void invalidUserIdsAreRefusedAtIssue(String userId) {
        assertThat(UserIds.isValid(userId)).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> this.codec.issue(42, userId));
    }

    @ParameterizedTest
    @ValueSource(longs = { 0, -1, Long.MIN_VALUE })
    void nonPositiveProductIdsAreRefusedAtIssue(long productId) {
        assertThatIllegalArgumentException().isThrownBy(() -> this.codec.issue(productId, "alice"));
    }

    @Test
    void shortOrMissingSecretIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new TokenCodec(null));
        assertThatIllegalArgumentException().isThrownBy(() -> new TokenCodec("only-15-chars-x"));
        assertThat(new TokenCodec("exactly-16-chars").issue(1, "a").value()).isNotBlank();
    }

    @Test
    void verifyIsSafeFromManyThreads() throws Exception {
        List<Token> issued = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            issued.add(this.codec.issue(i + 1, "user-" + i));
        }
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        for (Token token : issued) {
                            assertThat(this.codec.verify(token.value())).contains(token);
                            assertThat(this.codec.issue(token.productId(), token.userId())).isEqualTo(token);
                        }
                    }
                }
                catch (Throwable ex) {
                    failures.add(ex);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }

    private static String randomUserId(Random random) {
        String allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@:-";
        int length = 1 + random.nextInt(UserIds.MAX_LENGTH);
        StringBuilder builder = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            builder.append(allowed.charAt(random.nextInt(allowed.length())));
        }
        return new String(builder.toString().getBytes(StandardCharsets.US_ASCII), StandardCharsets.US_ASCII);
    }
}
