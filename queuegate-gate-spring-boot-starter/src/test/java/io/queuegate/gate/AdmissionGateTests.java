package io.queuegate.gate;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ProblemCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The gate's Java side: signature checks before Redis, quantity bounds and races. */
class AdmissionGateTests extends GateRedisTestSupport {

    /** An hour from the real now: these tests go through the public reserve, which reads Redis TIME. */
    private final long far = System.currentTimeMillis() + 3_600_000;

    @Test
    void aTokenFromAnotherSecretIsRefusedBeforeRedis() {
        // the forged token is even in entry:{p}: only the signature check can keep it out
        String forged = new TokenCodec("some-other-secret-0123456789").issue(this.product, "mallory").value();
        assertRefusedWithoutTouchingRedis(forged);
    }

    @Test
    void aTamperedTokenIsRefusedBeforeRedis() {
        String genuine = token("mallory");
        byte[] bytes = Base64.getUrlDecoder().decode(genuine);
        bytes[bytes.length - 1] ^= 0x01;
        String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertThat(tampered).isNotEqualTo(genuine);
        assertRefusedWithoutTouchingRedis(tampered);
    }

    @Test
    void aTokenOfAnotherProductIsRefusedBeforeRedis() {
        long other = unusedProduct();
        String foreign = this.codec.issue(other, "mallory").value();
        try {
            // admitted for the other product too, with stock there
            redis.opsForZSet().add(QueueKeys.of(other).entry(), "mallory", far);
            redis.opsForValue().set(QueueKeys.of(other).stock(), "10");
            assertRefusedWithoutTouchingRedis(foreign);
            assertThat(redis.opsForZSet().score(QueueKeys.of(other).entry(), "mallory")).isEqualTo((double) far);
            assertThat(redis.opsForValue().get(QueueKeys.of(other).stock())).isEqualTo("10");
        }
        finally {
            redis.delete(QueueKeys.of(other).all());
        }
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { "not-a-token", "!!!!", "AQ" })
    void garbageTokensAreRefused(String garbage) {
        stock(10);
        assertThatExceptionOfType(GateRejectedException.class)
            .isThrownBy(() -> this.gate.reserve(this.product, garbage, 1))
            .satisfies((ex) -> assertThat(ex.code()).isEqualTo(ProblemCodes.TOKEN_NOT_ADMITTED));
        assertThat(stockValue()).isEqualTo("10");
        assertThat(bookings()).isEmpty();
        assertThat(stats()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(ints = { Integer.MIN_VALUE, -1, 0, MAX_QUANTITY + 1, Integer.MAX_VALUE })
    void aQuantityOutsideOneToMaxIsAnIllegalArgument(int quantity) {
        String token = token("gina");
        admit(token, far);
        stock(100);

        assertThatIllegalArgumentException().isThrownBy(() -> this.gate.reserve(this.product, token, quantity));

        assertThat(entryScore(token)).isEqualTo((double) far);
        assertThat(stockValue()).isEqualTo("100");
        assertThat(bookings()).isEmpty();
    }

    @Test
    void theBoundsThemselvesAreAccepted() {
        String one = token("one");
        String max = token("max");
        admit(one, far);
        admit(max, far);
        stock(100);

        assertThat(this.gate.reserve(this.product, one, 1).quantity()).isEqualTo(1);
        assertThat(this.gate.reserve(this.product, max, MAX_QUANTITY).quantity()).isEqualTo(MAX_QUANTITY);
        assertThat(stockValue()).isEqualTo(Long.toString(100 - 1 - MAX_QUANTITY));
    }

    @Test
    void aWaitingOrUnknownTokenIsNotAdmitted() {
        String token = token("henry");
        redis.opsForZSet().add(this.keys.waiting(), token, 1);
        stock(10);

        assertThatExceptionOfType(GateRejectedException.class)
            .isThrownBy(() -> this.gate.reserve(this.product, token, 1))
            .satisfies((ex) -> {
                assertThat(ex.code()).isEqualTo(ProblemCodes.TOKEN_NOT_ADMITTED);
                assertThat(ex.status()).isEqualTo(HttpStatus.FORBIDDEN);
            });
        assertThat(stockValue()).isEqualTo("10");
        assertThat(redis.opsForZSet().score(this.keys.waiting(), token)).isEqualTo(1.0);
    }

    @Test
    void manyBuyersRaceForLittleStock() throws Exception {
        int threads = 200;
        int admitted = 50;
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            String token = token("buyer-" + i);
            tokens.add(token);
            if (i < admitted) {
                admit(token, far);
            }
        }
        stock(10);

        List<Outcome> outcomes = race(threads, (i) -> attempt(tokens.get(i)));

        Map<String, Long> counts = outcomes.stream()
            .collect(Collectors.groupingBy(Outcome::result, Collectors.counting()));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("RESERVED", 10L,
                ProblemCodes.SOLD_OUT, 40L, ProblemCodes.TOKEN_NOT_ADMITTED, 150L));
        List<String> reservedTokens = outcomes.stream().filter((o) -> o.result().equals("RESERVED"))
            .map(Outcome::token).toList();
        List<String> soldOutTokens = outcomes.stream().filter((o) -> o.result().equals(ProblemCodes.SOLD_OUT))
            .map(Outcome::token).toList();
        assertThat(reservedTokens).doesNotHaveDuplicates().allMatch((t) -> tokens.indexOf(t) < admitted);
        assertThat(soldOutTokens).doesNotHaveDuplicates().allMatch((t) -> tokens.indexOf(t) < admitted);
        assertThat(stockValue()).isEqualTo("0");
        assertThat(bookings()).hasSize(10);
        assertThat(stat("consumedTotal")).isEqualTo(10);
        // the sold-out tokens stay usable; the reserved ones are gone
        assertThat(entries().keySet()).containsExactlyInAnyOrderElementsOf(
                soldOutTokens.stream().map(GateRedisTestSupport::userNamedBy).toList());
        assertThat(gone()).containsExactlyInAnyOrderElementsOf(
                reservedTokens.stream().map(GateRedisTestSupport::userNamedBy).toList());
    }

    @Test
    void oneTokenUsedByManyThreadsAtOnceReservesOnce() throws Exception {
        String token = token("twin");
        admit(token, far);
        stock(100);

        List<Outcome> outcomes = race(20, (i) -> attempt(token));

        assertThat(outcomes).filteredOn((o) -> o.result().equals("RESERVED")).hasSize(1);
        assertThat(outcomes).filteredOn((o) -> o.result().equals(ProblemCodes.TOKEN_NOT_ADMITTED)).hasSize(19);
        assertThat(stockValue()).isEqualTo("99");
        assertThat(bookings()).hasSize(1);
        assertThat(entryScore(token)).isNull();
        assertThat(stat("consumedTotal")).isEqualTo(1);
    }

    private void assertRefusedWithoutTouchingRedis(String token) {
        admit(token, far);
        stock(10);
        Map<String, Double> entries = entries();

        assertThatExceptionOfType(GateRejectedException.class)
            .isThrownBy(() -> this.gate.reserve(this.product, token, 1))
            .satisfies((ex) -> {
                assertThat(ex.code()).isEqualTo(ProblemCodes.TOKEN_NOT_ADMITTED);
                assertThat(ex.status()).isEqualTo(HttpStatus.FORBIDDEN);
            });

        assertThat(entries()).isEqualTo(entries).containsKey(userNamedBy(token));
        assertThat(stockValue()).isEqualTo("10");
        assertThat(bookings()).isEmpty();
        assertThat(stats()).isEmpty();
        assertThat(audit()).isEmpty();
    }

    private Outcome attempt(String token) {
        try {
            this.gate.reserve(this.product, token, 1);
            return new Outcome(token, "RESERVED");
        }
        catch (GateRejectedException ex) {
            return new Outcome(token, ex.code());
        }
    }

    private static List<Outcome> race(int threads, java.util.function.IntFunction<Outcome> attempt)
            throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Outcome>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int index = t;
                Callable<Outcome> call = () -> {
                    ready.countDown();
                    start.await();
                    return attempt.apply(index);
                };
                futures.add(pool.submit(call));
            }
            assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
            start.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> future : futures) {
                outcomes.add(future.get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        }
    }

    private record Outcome(String token, String result) {
    }
}
