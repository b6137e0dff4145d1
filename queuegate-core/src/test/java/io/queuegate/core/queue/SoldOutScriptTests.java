package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A product whose stock reached 0: admit_batch.lua admits nobody and read_status.lua answers SOLD_OUT, to the line
 * and to those admitted, keeping every place.
 */
class SoldOutScriptTests extends RedisScriptTestSupport {

    @Test
    void atZeroStockNobodyIsAdmittedAndWaitingAndPendingReadSoldOut() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b", "c"));
        this.admission.admit(this.product, NOW, 1);
        redis.opsForValue().set(this.keys.stock(), "0");

        AdmissionResult result = this.admission.admit(this.product, NOW + 1_000, 100);

        assertThat(result.admitted()).isZero();
        assertThat(waiting()).containsExactly("b", "c");
        assertThat(status("b", NOW + 1_000).status()).isEqualTo(TokenStatus.SOLD_OUT);
        assertThat(status("b", NOW + 1_000).position()).isZero();
        assertThat(status("not-applied-yet", NOW + 1_000).status()).isEqualTo(TokenStatus.SOLD_OUT);
        // admitted before the stock ran out: told so too, not to book what the counter can only refuse
        assertThat(status("a", NOW + 1_000).status()).isEqualTo(TokenStatus.SOLD_OUT);
        this.remover.remove(token("c"));
        assertThat(status("c", NOW + 1_000).status()).isEqualTo(TokenStatus.EXPIRED);
    }

    @Test
    void whenStockReturnsTheLineMovesAgainInOrder() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b", "c"));
        redis.opsForValue().set(this.keys.stock(), "0");
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isZero();

        redis.opsForValue().set(this.keys.stock(), "2");

        assertThat(status("b", NOW + 1_000)).isEqualTo(new TokenState(TokenStatus.WAITING, 2, 0, 100));
        assertThat(this.admission.admit(this.product, NOW + 1_000, 100).admitted()).isEqualTo(3);
        assertThat(entry()).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void anAdmittedUserReadsSoldOutKeepingTheAdmissionAndAvailableAgainWhenStockReturnsBeforeItsExpiry() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b"));
        this.admission.admit(this.product, NOW, 1);
        TokenState admitted = status("a", NOW + 1_000);
        assertThat(admitted.status()).isEqualTo(TokenStatus.AVAILABLE);

        redis.opsForValue().set(this.keys.stock(), "0");

        TokenState soldOut = status("a", NOW + 2_000);
        assertThat(soldOut.status()).isEqualTo(TokenStatus.SOLD_OUT);
        assertThat(soldOut.expiresAt()).as("the admission's expiry comes with it").isEqualTo(admitted.expiresAt())
            .isEqualTo(NOW + 60_000);
        assertThat(entry()).containsExactly("a");

        redis.opsForValue().set(this.keys.stock(), "1");

        TokenState again = status("a", NOW + 3_000);
        assertThat(again.status()).isEqualTo(TokenStatus.AVAILABLE);
        assertThat(again.expiresAt()).isEqualTo(admitted.expiresAt());
    }

    @Test
    void anAdmissionThatRanOutWhileSoldOutIsExpiredNotSoldOut() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a"));
        this.admission.admit(this.product, NOW, 1);
        redis.opsForValue().set(this.keys.stock(), "0");

        assertThat(status("a", NOW + 60_000).status()).isEqualTo(TokenStatus.EXPIRED);
    }

    @Test
    void withoutAStockKeyTheLineIsNeverSoldOut() {
        configure(10, 100, 60, true);
        this.line.append(this.product, List.of("a", "b"));

        assertThat(status("b", NOW)).isEqualTo(new TokenState(TokenStatus.WAITING, 2, 0, 100));
        assertThat(this.admission.admit(this.product, NOW, 100).admitted()).isEqualTo(2);
    }

    @Test
    void expiriesGoOnWhileSoldOut() {
        configure(10, 100, 1, true);
        this.line.append(this.product, List.of("a", "b"));
        this.admission.admit(this.product, NOW, 1);
        redis.opsForValue().set(this.keys.stock(), "0");

        AdmissionResult result = this.admission.admit(this.product, NOW + 1_000, 100);

        assertThat(result.expired()).isEqualTo(1);
        assertThat(result.admitted()).isZero();
        assertThat(gone()).containsExactly("a");
    }
}
