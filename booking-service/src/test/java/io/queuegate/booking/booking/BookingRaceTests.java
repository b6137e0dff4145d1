package io.queuegate.booking.booking;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.queuegate.booking.BookingHttpTestSupport;
import io.queuegate.booking.BookingLog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import org.springframework.test.web.servlet.client.EntityExchangeResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many admitted users book the same product at the same moment, over HTTP, with less stock than they ask for: the
 * stock is sold exactly, never oversold, and every loser is told sold out and keeps a usable token.
 */
class BookingRaceTests extends BookingHttpTestSupport {

    @ParameterizedTest(name = "{0} users race for {1} units, {2} each")
    @CsvSource({ "40, 7, 1", "40, 7, 2" })
    void admittedUsersRacingForLessStockThanTheyWantSellItExactly(int users, int stock, int quantity)
            throws Exception {
        long product = newProduct();
        List<String> userIds = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            String userId = "racer-" + i;
            userIds.add(userId);
            tokens.add(admit(product, userId));
        }
        setStock(product, stock);
        int winners = stock / quantity;
        double booked = bookings("booked");
        double soldOut = bookings("sold_out");

        AtomicBoolean racing = new AtomicBoolean(true);
        AtomicLong lowestStock = new AtomicLong(Long.MAX_VALUE);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<EntityExchangeResult<String>>> replies = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // reads the stock for as long as the race runs: it must never be seen below zero
            Future<?> watcher = threads.submit(() -> {
                start.await();
                while (racing.get()) {
                    lowestStock.accumulateAndGet(stock(product), Math::min);
                }
                return null;
            });
            for (String token : tokens) {
                replies.add(threads.submit(() -> {
                    start.await();
                    return book(product, token, quantity);
                }));
            }
            start.countDown();
            for (Future<EntityExchangeResult<String>> reply : replies) {
                reply.get();
            }
            racing.set(false);
            watcher.get();
        }

        List<EntityExchangeResult<String>> created = new ArrayList<>();
        List<Integer> losers = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            EntityExchangeResult<String> reply = replies.get(i).get();
            if (reply.getStatus().value() == 201) {
                created.add(reply);
            }
            else {
                assertThat(reply.getStatus().value()).as(reply.getResponseBody()).isEqualTo(409);
                assertThat(code(reply)).isEqualTo("sold_out");
                losers.add(i);
            }
        }
        assertThat(created).hasSize(winners);
        assertThat(losers).hasSize(users - winners);
        long left = stock - (long) winners * quantity;
        assertThat(left).isNotNegative();
        assertThat(stock(product)).isEqualTo(left);
        // the watcher's last read came after every answer, so it saw what is left; it never saw less
        assertThat(lowestStock.get()).as("the lowest stock seen during the race").isEqualTo(left);

        // each winner's booking is recorded and in the log, each loser still holds a usable place
        List<String> winnerIds = created.stream().map((reply) -> json(reply).get("userId").asString()).toList();
        assertThat(winnerIds).doesNotHaveDuplicates();
        assertThat(bookingRecords(product)).hasSize(winners);
        assertThat(reservations(product)).isEmpty();
        assertThat(gone(product)).containsExactlyInAnyOrderElementsOf(winnerIds);
        List<JsonNode> events = BookingLog.events(this.brokers, product);
        assertThat(events).map((event) -> event.get("userId").asString())
            .containsExactlyInAnyOrderElementsOf(winnerIds);
        assertThat(events).allSatisfy((event) -> assertThat(event.get("quantity").asInt()).isEqualTo(quantity));
        for (int loser : losers) {
            assertThat(entryExpiry(product, userIds.get(loser))).as(userIds.get(loser)).isNotNull();
        }
        assertThat(bookings("booked") - booked).isEqualTo(winners);
        assertThat(bookings("sold_out") - soldOut).isEqualTo(users - winners);

        // sold out leaves the token usable: with stock back, a loser books
        setStock(product, quantity);
        EntityExchangeResult<String> late = book(product, tokens.get(losers.getFirst()), quantity);
        assertThat(late.getStatus().value()).as(late.getResponseBody()).isEqualTo(201);
        assertThat(stock(product)).isZero();
    }
}
