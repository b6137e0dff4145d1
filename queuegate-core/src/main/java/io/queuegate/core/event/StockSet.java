package io.queuegate.core.event;

/**
 * A product's stock was set; published to {@link Topics#STOCK} (key {@code stock:<p>}) before it is acknowledged
 * (to {@link Topics#SALE} by booking services from before that topic, records a restore still reads). New fields may
 * be added; none is removed or renamed.
 *
 * @param available the units left to sell, as set
 * @param bookedUnits the units the product had booked when it was set (Redis {@code stats:{p}} {@code bookedUnits},
 *     read in the same step): a rebuild takes off the units of the bookings on {@link Topics#BOOKINGS} beyond it,
 *     so the stock comes back as set minus what was booked since
 */
public record StockSet(long productId, long available, long bookedUnits) {

    public static final String KEY_PREFIX = "stock:";

    public static String key(long productId) {
        return KEY_PREFIX + productId;
    }
}
