package io.queuegate.admission.restore;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.queuegate.core.event.StockSet;
import io.queuegate.core.queue.QueueSettings;

/**
 * What the durable records say about each product's sale, folded in log order: the last queue settings and stock
 * setting (the sale topic), the line's state changes (the audit topic), the leaves (the leaves topic) and the
 * bookings (the bookings topic). Pure;
 * {@link SaleRestore} reads the topics into it and writes the result to Redis.
 */
final class SaleLedger {

    private final Map<Long, ProductSale> products = new TreeMap<>();

    ProductSale product(long productId) {
        return this.products.computeIfAbsent(productId, id -> new ProductSale());
    }

    Map<Long, ProductSale> products() {
        return this.products;
    }

    /** @param deletedAt when the queue was deleted; null while it exists (a later record may create it again) */
    void configured(long productId, QueueSettings settings, Long deletedAt) {
        ProductSale sale = product(productId);
        sale.settings = settings;
        sale.deletedAt = deletedAt;
    }

    void stockSet(StockSet setting) {
        product(setting.productId()).stock = setting;
    }

    /** A hold stored in Kafka, or its release (a tombstone): the last one of each user counts. */
    void held(long productId, String userId, boolean held) {
        Set<String> users = product(productId).held;
        if (held) {
            users.add(userId);
        }
        else {
            users.remove(userId);
        }
    }

    /**
     * One audit event: ADMITTED gives an entry until {@code expiresAt}; EXPIRED, LEFT, REVOKED, CONSUMED and ABANDONED take the
     * place away for good; RESTORED (a booking undone) gives the entry back with the expiry it had; SHUFFLED (a fair
     * start's opening) re-placed its users by its seed, which the line's replay alone would not (it places everyone in
     * arrival order), so its users and seed are kept; an opening with another seed (opensAt moved and the sale opened
     * again) replaces them. ENTERED says nothing the line's own replay does not.
     */
    void changed(long productId, String type, Iterable<String> users, Long expiresAt, String seed) {
        ProductSale sale = product(productId);
        if ("SHUFFLED".equals(type) && seed != null && !seed.equals(sale.shuffleSeed)) {
            sale.shuffleSeed = seed;
            sale.shuffled.clear();
        }
        for (String user : users) {
            switch (type) {
                case "ADMITTED" -> {
                    if (expiresAt != null) {
                        sale.admittedUntil.put(user, expiresAt);
                    }
                }
                case "EXPIRED", "LEFT", "REVOKED", "CONSUMED", "ABANDONED" -> sale.gone.add(user);
                case "RESTORED" -> sale.gone.remove(user);
                case "SHUFFLED" -> sale.shuffled.add(user);
                default -> {
                    // nothing to restore
                }
            }
        }
    }

    /** A leave stored in Kafka: the user never gets a place again. */
    void left(long productId, String userId) {
        product(productId).left.add(userId);
    }

    /**
     * A booking stored in Kafka: its token is used, whatever the audit trail said after it, unless the gate undid that
     * very booking ({@link #undone}). A booking delivered twice counts once.
     */
    void booked(long productId, String bookingId, String userId, int quantity, String record) {
        product(productId).bookings.putIfAbsent(bookingId, new StoredBooking(userId, quantity, record));
    }

    /**
     * The gate undid a booking (a RESTORED change naming it): its publish was not acknowledged in time, the buyer was
     * told to try again and the stock went back on sale, yet the producer's retries may still have stored it. Such a
     * record books nothing, whichever topic is read first.
     */
    void undone(long productId, String bookingId) {
        product(productId).undone.add(bookingId);
    }

    static final class ProductSale {

        QueueSettings settings;

        /** When the queue was deleted, by its last record; null while it exists. */
        Long deletedAt;

        StockSet stock;

        /** Users admitted, with their entry's expiry, in the order they were admitted. */
        final Map<String, Long> admittedUntil = new LinkedHashMap<>();

        final Set<String> gone = new HashSet<>();

        final Set<String> left = new HashSet<>();

        /** Booking id → the booking stored in Kafka, undone or not. */
        final Map<String, StoredBooking> bookings = new HashMap<>();

        /** Ids of the bookings the gate undid. */
        final Set<String> undone = new HashSet<>();

        /** The seed of the last fair-start opening, and the early entrants it re-placed; null and empty without one. */
        String shuffleSeed;

        final Set<String> shuffled = new LinkedHashSet<>();

        /** The users the operator holds now. */
        final Set<String> held = new HashSet<>();

        /** The bookings that stand: stored in Kafka and not undone. */
        private Stream<Map.Entry<String, StoredBooking>> standing() {
            return this.bookings.entrySet().stream().filter((booking) -> !this.undone.contains(booking.getKey()));
        }

        /** Booking id → the booking as the gate stores it, for the bookings that stand. */
        Map<String, String> standingBookings() {
            return standing().collect(Collectors.toMap(Map.Entry::getKey, (booking) -> booking.getValue().record()));
        }

        /** The units of the bookings that stand. */
        long bookedUnits() {
            return standing().mapToLong((booking) -> booking.getValue().quantity()).sum();
        }

        /** Users with a booking that stands. */
        Set<String> bookedUsers() {
            return standing().map((booking) -> booking.getValue().userId()).collect(Collectors.toSet());
        }

        /** Users whose place is gone: left, expired, abandoned or used (booked). */
        Set<String> goneUsers() {
            Set<String> all = new HashSet<>(this.gone);
            all.addAll(bookedUsers());
            all.addAll(this.left);
            return all;
        }

        /** Users still holding an entry as far as the log knows (expired ones are expired by the next tick). */
        Map<String, Long> entries() {
            Map<String, Long> live = new LinkedHashMap<>();
            Set<String> booked = bookedUsers();
            this.admittedUntil.forEach((user, until) -> {
                if (!this.gone.contains(user) && !booked.contains(user) && !this.left.contains(user)) {
                    live.put(user, until);
                }
            });
            return live;
        }

        /**
         * The stock as set minus the units booked since: the bookings beyond the count the setting was made at.
         * Null when no stock was ever set (the line then never reads sold out, as before the loss).
         */
        Long stockLeft() {
            if (this.stock == null) {
                return null;
            }
            long since = Math.max(0, bookedUnits() - this.stock.bookedUnits());
            return Math.max(0, this.stock.available() - since);
        }
    }

    /** A booking as the bookings topic holds it. */
    record StoredBooking(String userId, int quantity, String record) {
    }
}
