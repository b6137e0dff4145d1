package io.queuegate.admission.restore;

import java.util.List;
import java.util.Map;

import io.queuegate.core.event.StockSet;
import io.queuegate.core.queue.QueueSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SaleLedgerTests {

    private static final long P = 7;

    @Test
    void aBookedUserIsGoneWhateverTheAuditTrailSaidAfter() {
        SaleLedger ledger = new SaleLedger();
        ledger.changed(P, "ADMITTED", List.of("a", "b"), 5_000L, null);
        ledger.booked(P, "7-1", "a", 1, "{}");
        ledger.changed(P, "RESTORED", List.of("a"), null, null);

        SaleLedger.ProductSale sale = ledger.product(P);
        assertThat(sale.goneUsers()).containsExactly("a");
        assertThat(sale.entries()).containsExactly(Map.entry("b", 5_000L));
    }

    @Test
    void aBookingTheGateUndidBooksNothingThoughKafkaStoredIt() {
        SaleLedger ledger = new SaleLedger();
        ledger.stockSet(new StockSet(P, 2, 0));
        ledger.changed(P, "ADMITTED", List.of("a", "b"), 9_000L, null);
        // a's publish timed out: the gate undid it and sold the unit to b, while the producer still stored it
        ledger.changed(P, "RESTORED", List.of("a"), null, null);
        ledger.undone(P, "7-1");
        ledger.booked(P, "7-2", "b", 1, "{\"b\"}");
        ledger.booked(P, "7-1", "a", 1, "{\"a\"}");
        ledger.booked(P, "7-3", "a", 1, "{\"a again\"}");

        SaleLedger.ProductSale sale = ledger.product(P);
        assertThat(sale.standingBookings()).containsOnlyKeys("7-2", "7-3");
        assertThat(sale.bookedUnits()).isEqualTo(2);
        assertThat(sale.stockLeft()).isZero();
        assertThat(sale.goneUsers()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void anUndoneBookingLeavesItsUserAnEntry() {
        SaleLedger ledger = new SaleLedger();
        ledger.changed(P, "ADMITTED", List.of("a"), 9_000L, null);
        ledger.booked(P, "7-1", "a", 1, "{}");
        ledger.changed(P, "CONSUMED", List.of("a"), null, null);
        ledger.changed(P, "RESTORED", List.of("a"), null, null);
        ledger.undone(P, "7-1");

        assertThat(ledger.product(P).goneUsers()).isEmpty();
        assertThat(ledger.product(P).entries()).containsExactly(Map.entry("a", 9_000L));
        assertThat(ledger.product(P).bookedUnits()).isZero();
    }

    @Test
    void leftExpiredAndAbandonedUsersLoseTheirEntryForGood() {
        SaleLedger ledger = new SaleLedger();
        ledger.changed(P, "ADMITTED", List.of("a", "b", "c", "d"), 9_000L, null);
        ledger.changed(P, "EXPIRED", List.of("a"), null, null);
        ledger.changed(P, "ABANDONED", List.of("x"), null, null);
        ledger.left(P, "b");
        ledger.changed(P, "SHUFFLED", List.of("c"), null, null);

        SaleLedger.ProductSale sale = ledger.product(P);
        assertThat(sale.goneUsers()).containsExactlyInAnyOrder("a", "b", "x");
        assertThat(sale.entries().keySet()).containsExactly("c", "d");
    }

    @Test
    void theLastOpeningsSeedAndItsEarlyEntrantsAreKept() {
        SaleLedger ledger = new SaleLedger();
        ledger.changed(P, "SHUFFLED", List.of("a", "b"), null, "old");
        ledger.changed(P, "SHUFFLED", List.of("c"), null, "new");
        ledger.changed(P, "SHUFFLED", List.of("d"), null, "new");

        assertThat(ledger.product(P).shuffleSeed).isEqualTo("new");
        assertThat(ledger.product(P).shuffled).containsExactly("c", "d");
    }

    @Test
    void aRestoredBookingGivesTheEntryBackWithItsExpiry() {
        SaleLedger ledger = new SaleLedger();
        ledger.changed(P, "ADMITTED", List.of("a"), 9_000L, null);
        ledger.changed(P, "CONSUMED", List.of("a"), null, null);
        assertThat(ledger.product(P).entries()).isEmpty();
        ledger.changed(P, "RESTORED", List.of("a"), null, null);
        assertThat(ledger.product(P).entries()).containsEntry("a", 9_000L);
    }

    @Test
    void theStockIsTheLastSettingMinusTheUnitsBookedAfterIt() {
        SaleLedger ledger = new SaleLedger();
        assertThat(ledger.product(P).stockLeft()).isNull();
        ledger.stockSet(new StockSet(P, 10, 0));
        ledger.booked(P, "7-1", "a", 2, "{}");
        ledger.booked(P, "7-1", "a", 2, "{}"); // the same booking delivered twice counts once
        assertThat(ledger.product(P).stockLeft()).isEqualTo(8);
        ledger.stockSet(new StockSet(P, 50, 2));
        ledger.booked(P, "7-2", "b", 3, "{}");
        assertThat(ledger.product(P).stockLeft()).isEqualTo(47);
        assertThat(ledger.product(P).bookedUnits()).isEqualTo(5);
        ledger.stockSet(new StockSet(P, 1, 0));
        assertThat(ledger.product(P).stockLeft()).as("never below zero").isZero();
    }

    @Test
    void theLastSettingsWin() {
        SaleLedger ledger = new SaleLedger();
        ledger.configured(P, new QueueSettings(5, 10, 60, true, null, null, null), null);
        ledger.configured(P, new QueueSettings(9, 10, 60, false, null, null, null), 1_000L);
        assertThat(ledger.product(P).settings.maxActive()).isEqualTo(9);
        assertThat(ledger.product(P).deletedAt).as("deleted").isEqualTo(1_000L);
        ledger.configured(P, new QueueSettings(7, 10, 60, true, null, null, null), null);
        assertThat(ledger.product(P).deletedAt).as("created again").isNull();
        assertThat(ledger.products()).containsOnlyKeys(P);
    }

    @Test
    void theLastHoldOfEachUserWins() {
        SaleLedger ledger = new SaleLedger();
        ledger.held(P, "a", true);
        ledger.held(P, "b", true);
        ledger.held(P, "a", false);
        assertThat(ledger.product(P).held).containsExactly("b");
    }
}
