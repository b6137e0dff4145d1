package io.queuegate.core.queue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A product whose stock reached 0: admit_batch.lua admits nobody and read_status.lua answers SOLD_OUT. */
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
        // admitted before the stock ran out: still holds the entry (the booking counter answers sold_out)
        assertThat(status("a", NOW + 1_000).status()).isEqualTo(TokenStatus.AVAILABLE);
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
