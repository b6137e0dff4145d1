package io.queuegate.booking.booking;

import io.queuegate.gate.BookingRecord;

record BookingResponse(String bookingId, long productId, String userId, int quantity, long bookedAt) {

    static BookingResponse of(BookingConfirmed booking) {
        return new BookingResponse(booking.bookingId(), booking.productId(), booking.userId(), booking.quantity(),
                booking.bookedAt());
    }

    static BookingResponse of(BookingRecord record) {
        return new BookingResponse(record.bookingId(), record.productId(), record.userId(), record.quantity(),
                record.bookedAt());
    }
}
