package io.queuegate.gate;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Bookings the gate recorded, found by id alone. */
class BookingLookupTests extends GateRedisTestSupport {

    @Test
    void aBookingIsFoundByItsId() {
        String token = token("iris");
        admit(token, System.currentTimeMillis() + 3_600_000);
        stock(5);

        Reservation reservation = this.gate.reserve(this.product, token, 2);

        assertThat(this.bookingLookup.find(reservation.bookingId())).hasValueSatisfying((record) -> {
            assertThat(record.bookingId()).isEqualTo(reservation.bookingId());
            assertThat(record.productId()).isEqualTo(this.product);
            assertThat(record.userId()).isEqualTo("iris");
            assertThat(record.quantity()).isEqualTo(2);
            assertThat(record.bookedAt()).isEqualTo(reservation.bookedAt());
        });
        assertThat(this.bookingLookup.find(this.product + "-" + UUID.randomUUID())).isEmpty();
        assertThat(this.stockLedger.available(this.product)).isEqualTo(3);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { "abc", "12345", "-12345", "-", "x-y", "12a-b", "99999999999999999999999-x", "1.5-x",
            " -x" })
    void unknownOrGarbageBookingIdsAreEmpty(String id) {
        assertThat(this.bookingLookup.find(id)).isEmpty();
    }
}
