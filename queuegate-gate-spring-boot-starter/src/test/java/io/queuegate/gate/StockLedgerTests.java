package io.queuegate.gate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StockLedgerTests extends GateRedisTestSupport {

    @Test
    void stockCanBeSetAndRead() {
        assertThat(this.stockLedger.available(this.product)).isZero();
        this.stockLedger.set(this.product, 42);
        assertThat(this.stockLedger.available(this.product)).isEqualTo(42);
        assertThat(stockValue()).isEqualTo("42");
    }
}
