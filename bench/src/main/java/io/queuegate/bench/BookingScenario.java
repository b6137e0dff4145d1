package io.queuegate.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.queuegate.core.queue.QueueKeys;
import io.queuegate.loopback.HttpPool;

import org.HdrHistogram.Histogram;

/**
 * Figure 5: bookings per second while every buyer contends for one product's stock. The product gets admitted tokens
 * straight in {@code entry:{p}} (more than its stock), then all of them try to book at once through the booking
 * service; the rate is counted until the stock runs out, and exactly the stock must be sold. The yardstick is the
 * no-op POST driven by the same Java generator at the same concurrency.
 */
final class BookingScenario {

    private BookingScenario() {
    }

    static BookingFigure run(Bench bench) throws Exception {
        Options options = bench.options;
        int connections = options.connections();
        Load java = new Load(options.host(), false, 1, connections, options.rawDir());

        long warmProduct = bench.newProduct();
        int warmTokens = (int) Math.min(300_000, 12_000 * Math.max(1, options.warmup().toSeconds()));
        bench.progress.phase("booking: preparing " + warmTokens + " admitted tokens for the warm-up", warmTokens / 100_000.0);
        List<String> warm = admitted(bench, warmProduct, warmTokens, "w");
        bench.putStock(warmProduct, warmTokens);
        bench.progress.phase("booking: warm-up", options.warmup().toSeconds());
        book(bench, warmProduct, warm, connections, System.nanoTime() + options.warmup().toNanos());
        bench.redis.unlink(QueueKeys.of(warmProduct).all());

        long noopProduct = bench.newProduct();
        bench.progress.phase("booking: no-op POST yardstick (Java generator)", options.duration().toSeconds());
        Map<String, Object> noop = bench.metered(() -> java.run(Load.Target.post("no-op POST", Bench.INGEST,
                "/bench/noop/" + noopProduct + "/entries"), options.duration(), "k" + bench.runId));

        int stock = options.bookingStock();
        int tokens = stock + stock / 5;
        long product = bench.newProduct();
        bench.progress.phase("booking: preparing " + tokens + " admitted tokens for " + stock + " units", tokens / 100_000.0);
        List<String> buyers = admitted(bench, product, tokens, "k");
        bench.putStock(product, stock);
        bench.progress.phase("booking: " + tokens + " buyers for " + stock + " units", stock / 10_000.0);
        Map<String, Object> out = new LinkedHashMap<>(bench.metered(() -> book(bench, product, buyers, connections, Long.MAX_VALUE)));
        QueueKeys keys = QueueKeys.of(product);
        long booked = (long) out.get("booked");
        long left = Long.parseLong(bench.redis.sync.get(keys.stock()));
        long records = bench.redis.sync.hlen(keys.bookings());
        out.put("stock", stock);
        out.put("stockLeft", left);
        out.put("bookingRecords", records);
        out.put("exactlyStockSold", booked == stock && left == 0 && records == stock);
        out.put("cpuMicrosPerBooking", Figures.perUnit((Map<?, ?>) out.get("cpu"), Math.max(1, Report.num(out.get("attempts")))));
        out.put("yardstick", noop);
        out.put("driver", java.driverName());
        long rate = (long) out.get("bookingsPerSecond");
        long yard = (long) noop.get("perSecond");
        out.put("ratio", Figures.round3(rate / (double) yard));
        bench.redis.unlink(keys.all());
        bench.progress.note(String.format("booking: %,d bookings/s until sold out (no-op POST %,d/s = %.2f); sold exactly the stock: %s",
                rate, yard, rate / (double) yard, out.get("exactlyStockSold")));
        return Figures.typed(out, BookingFigure.class);
    }

    /** Issues tokens and puts their users in {@code entry:{p}} as if admitted, expiring in 30 minutes. */
    private static List<String> admitted(Bench bench, long product, int count, String prefix) {
        List<String> tokens = new ArrayList<>(count);
        List<String> users = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String user = prefix + bench.runId + "-" + i;
            users.add(user);
            tokens.add(bench.codec.issue(product, user).value());
        }
        bench.redis.zaddAll(QueueKeys.of(product).entry(), users, 0, (double) (System.currentTimeMillis() + 1_800_000));
        return tokens;
    }

    /** Every token books once, {@code connections} at a time, until the tokens or the time run out. */
    private static Map<String, Object> book(Bench bench, long product, List<String> tokens, int connections,
            long deadline) throws IOException, InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicLong lastBooked = new AtomicLong();
        AtomicLongArray statuses = new AtomicLongArray(600);
        AtomicLong errors = new AtomicLong();
        Histogram latency = Latency.histogram();
        long start;
        try (HttpPool pool = new HttpPool(bench.options.host(), Bench.BOOKING, connections).warm(connections)) {
            start = System.nanoTime();
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < connections; w++) {
                workers.add(Thread.ofVirtual().start(() -> {
                    int i;
                    while ((i = next.getAndIncrement()) < tokens.size() && System.nanoTime() < deadline) {
                        long sent = System.nanoTime();
                        try {
                            HttpPool.Response response = pool.post("/api/v1/bookings", "{\"productId\":" + product
                                    + ",\"token\":\"" + tokens.get(i) + "\",\"quantity\":1}");
                            long now = System.nanoTime();
                            statuses.incrementAndGet(Math.min(599, response.status()));
                            if (response.status() == 201) {
                                latency.recordValue(now - sent);
                                lastBooked.accumulateAndGet(now, Math::max);
                            }
                        }
                        catch (IOException ex) {
                            errors.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
        }
        long booked = statuses.get(201);
        double seconds = (Math.max(lastBooked.get(), start + 1) - start) / 1e9;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("attempts", Math.min(next.get(), tokens.size()));
        out.put("booked", booked);
        out.put("soldOut409", statuses.get(409));
        out.put("rejected403", statuses.get(403));
        out.put("unavailable503", statuses.get(503));
        out.put("errors", errors.get());
        out.put("secondsUntilSoldOut", Figures.round3(seconds));
        out.put("bookingsPerSecond", Math.round(booked / seconds));
        out.put("latency", Latency.of(latency));
        return out;
    }
}
