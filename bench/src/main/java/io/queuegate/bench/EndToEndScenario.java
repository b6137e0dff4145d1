package io.queuegate.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.loopback.HttpPool;

import org.HdrHistogram.Histogram;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Figure 6: a sale as buyers live it. Each simulated user is a virtual thread: it enters at its moment of an even
 * arrival over the window (open loop: a slow server does not slow the arrivals), polls its status when
 * {@code pollAfterMs} says, books as soon as it is AVAILABLE, and stops at EXPIRED, sold out, or the end of the sale.
 * A coordinator samples the queue's counters every 100 ms; a probe follows one user in a hundred at 10 ms resolution
 * to time enter → in the line without adding HTTP polls.
 */
final class EndToEndScenario {

    private record Probe(String userId, long sentNanos, long acceptedNanos) {
    }

    private record Entered(String token, long sentNanos) {
    }

    private EndToEndScenario() {
    }

    static EndToEndFigure run(Bench bench) throws Exception {
        Options options = bench.options;
        int users = options.e2eUsers();
        int rate = options.e2eAdmitPerSecond();
        int stock = options.e2eStock();
        long product = bench.newProduct();
        bench.putQueue(product, options.e2eMaxActive(), rate, 60, true);
        bench.putStock(product, stock);
        bench.progress.phase("e2e: " + users + " users enter within " + options.e2eWindow().toSeconds() + " s, poll, get in, book "
                + stock + " units at " + rate + "/s", options.e2eWindow().toSeconds() + stock / (double) rate + 3);
        return Figures.typed(bench.metered(() -> new Sale(bench, product, users, rate, stock).run()),
                EndToEndFigure.class);
    }

    private static final class Sale {

        private final Bench bench;

        private final long product;

        private final QueueKeys keys;

        private final int users;

        private final int rate;

        private final int stock;

        private final long windowNanos;

        private final int slots;

        private final AtomicLongArray enters;

        private final AtomicLongArray polls;

        private final AtomicLongArray bookings;

        private final Histogram enterLatency = Latency.histogram();

        private final Histogram pollLatency = Latency.histogram();

        private final Histogram bookLatency = Latency.histogram();

        private final Histogram observed = Latency.histogram();

        private final Histogram pipeline = Latency.histogram();

        private final Histogram acceptedToLine = Latency.histogram();

        private final AtomicLong retried503 = new AtomicLong();

        private final AtomicLong failedEnters = new AtomicLong();

        private final AtomicLong httpErrors = new AtomicLong();

        private final AtomicLong booked = new AtomicLong();

        private final AtomicLong soldOut = new AtomicLong();

        private final AtomicLong rejected = new AtomicLong();

        private final AtomicLong expired = new AtomicLong();

        private final AtomicLong lastEnter = new AtomicLong();

        private final ConcurrentLinkedQueue<Probe> probes = new ConcurrentLinkedQueue<>();

        private final HttpPool ingest;

        private final HttpPool booking;

        private volatile boolean stop;


        private long start;

        Sale(Bench bench, long product, int users, int rate, int stock) {
            this.bench = bench;
            this.product = product;
            this.keys = QueueKeys.of(product);
            this.users = users;
            this.rate = rate;
            this.stock = stock;
            this.windowNanos = bench.options.e2eWindow().toNanos();
            this.slots = (int) (bench.options.e2eWindow().toSeconds() + bench.options.e2eTimeout().toSeconds() + 10);
            this.enters = new AtomicLongArray(this.slots);
            this.polls = new AtomicLongArray(this.slots);
            this.bookings = new AtomicLongArray(this.slots);
            this.ingest = new HttpPool(bench.options.host(), Bench.INGEST, 2 * bench.options.connections());
            this.booking = new HttpPool(bench.options.host(), Bench.BOOKING, bench.options.connections());
        }

        Map<String, Object> run() throws Exception {
            this.ingest.warm(2 * this.bench.options.connections());
            this.booking.warm(this.bench.options.connections());
            this.start = System.nanoTime() + 300_000_000L;
            List<Thread> threads = new ArrayList<>(this.users);
            for (int i = 0; i < this.users; i++) {
                int user = i;
                threads.add(Thread.ofVirtual().unstarted(() -> user(user)));
            }
            threads.forEach(Thread::start);
            Thread prober = Thread.ofPlatform().name("bench-probe").daemon().start(this::probe);
            List<long[]> samples = new ArrayList<>();
            long deadline = this.start + this.windowNanos + this.bench.options.e2eTimeout().toNanos();
            long soldOutAt = -1;
            while (true) {
                long now = System.nanoTime();
                long admitted = this.bench.redis.hgetLong(this.keys.stats(), "admittedTotal");
                long entered = this.bench.redis.hgetLong(this.keys.stats(), "enteredTotal");
                String left = this.bench.redis.sync.get(this.keys.stock());
                samples.add(new long[] {(now - this.start) / 1_000_000, admitted, entered});
                if ("0".equals(left)) {
                    soldOutAt = now;
                    break;
                }
                if (now > deadline) {
                    break;
                }
                Thread.sleep(100);
            }
            this.stop = true;
            // Every user still waiting for its next step wakes and leaves. The users sleep rather than wait on one
            // shared latch: 100,000 timed waiters on a latch made each timeout walk the latch's whole queue, and
            // that took the generator 1.85 of the two cores and stalled the sale.
            threads.forEach(Thread::interrupt);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(30));
            }
            prober.interrupt();
            this.ingest.close();
            this.booking.close();
            return results(samples, soldOutAt);
        }

        private int slot(long nanos) {
            return (int) Math.max(0, Math.min(this.slots - 1, (nanos - this.start) / 1_000_000_000L));
        }

        private void user(int index) {
            try {
                sleepUntil(this.start + index * this.windowNanos / this.users);
                if (this.stop) {
                    return;
                }
                Entered entered = enter(index);
                if (entered == null) {
                    return;
                }
                String token = entered.token();
                long wait = 1_000;
                boolean seen = false;
                while (!this.stop) {
                    Thread.sleep(wait);
                    long sent = System.nanoTime();
                    HttpPool.Response response = this.ingest.get("/api/v1/queues/" + this.product + "/entries/" + token);
                    long now = System.nanoTime();
                    this.pollLatency.recordValue(now - sent);
                    this.polls.incrementAndGet(slot(now));
                    JsonNode answer = response.status() == 200 ? JsonMapper.shared().readTree(response.body())
                            : MissingNode.getInstance();
                    String status = answer.path("status").asString(null);
                    if (status == null) {
                        this.httpErrors.incrementAndGet();
                        wait = 1_000;
                        continue;
                    }
                    if (!seen && !status.equals("PENDING")) {
                        seen = true;
                        this.observed.recordValue(now - entered.sentNanos());
                    }
                    switch (status) {
                        case "AVAILABLE" -> {
                            book(token);
                            return;
                        }
                        case "EXPIRED" -> {
                            this.expired.incrementAndGet();
                            return;
                        }
                        default -> wait = answer.path("pollAfterMs").asLong(1_000);
                    }
                }
            }
            catch (InterruptedException ex) {
                // the sale is over
            }
            catch (IOException | JacksonException ex) {
                if (!this.stop) {
                    this.httpErrors.incrementAndGet();
                }
            }
        }

        /** Enters; a 503 is retried after a second, as a client honouring Retry-After would. */
        private Entered enter(int index) throws IOException, InterruptedException {
            // a visitor's first enter: the server makes the user id, read back from the 202
            String body = "{}";
            long firstSent = System.nanoTime();
            for (int attempt = 0; attempt < 10 && !this.stop; attempt++) {
                long sent = System.nanoTime();
                HttpPool.Response response = this.ingest.post("/api/v1/queues/" + this.product + "/entries", body);
                long now = System.nanoTime();
                this.enterLatency.recordValue(now - sent);
                if (response.status() == 202) {
                    this.enters.incrementAndGet(slot(now));
                    this.lastEnter.accumulateAndGet(now, Math::max);
                    JsonNode accepted = JsonMapper.shared().readTree(response.body());
                    String token = accepted.path("token").asString(null);
                    if (index % 100 == 0) {
                        this.probes.add(new Probe(accepted.path("userId").asString(null), firstSent, now));
                    }
                    return new Entered(token, firstSent);
                }
                if (response.status() != 503) {
                    this.failedEnters.incrementAndGet();
                    return null;
                }
                this.retried503.incrementAndGet();
                Thread.sleep(1_000);
            }
            this.failedEnters.incrementAndGet();
            return null;
        }

        private void book(String token) throws IOException {
            long sent = System.nanoTime();
            HttpPool.Response response = this.booking.post("/api/v1/bookings",
                    "{\"productId\":" + this.product + ",\"token\":\"" + token + "\",\"quantity\":1}");
            long now = System.nanoTime();
            switch (response.status()) {
                case 201 -> {
                    this.booked.incrementAndGet();
                    this.bookings.incrementAndGet(slot(now));
                    this.bookLatency.recordValue(now - sent);
                }
                case 409 -> this.soldOut.incrementAndGet();
                case 403 -> this.rejected.incrementAndGet();
                default -> this.httpErrors.incrementAndGet();
            }
        }

        /** Every 10 ms, asks Redis (pipelined) whether the probed users are in the line yet. */
        private void probe() {
            while (!this.stop) {
                try {
                    Thread.sleep(10);
                }
                catch (InterruptedException ex) {
                    return;
                }
                List<Probe> pending = List.copyOf(this.probes);
                if (pending.isEmpty()) {
                    continue;
                }
                // the line has the user once they wait, hold an entry or are gone
                List<RedisFuture<?>> answers = new ArrayList<>();
                for (Probe probe : pending) {
                    answers.add(this.bench.redis.async.zscore(this.keys.waiting(), probe.userId()));
                    answers.add(this.bench.redis.async.zscore(this.keys.entry(), probe.userId()));
                    answers.add(this.bench.redis.async.sismember(this.keys.gone(), probe.userId()));
                }
                LettuceFutures.awaitAll(5, TimeUnit.SECONDS, answers.toArray(RedisFuture[]::new));
                long now = System.nanoTime();
                Iterator<RedisFuture<?>> answer = answers.iterator();
                for (Probe probe : pending) {
                    Object waiting = answer.next().resultNow();
                    Object entry = answer.next().resultNow();
                    Object gone = answer.next().resultNow();
                    if (waiting != null || entry != null || Boolean.TRUE.equals(gone)) {
                        this.pipeline.recordValue(now - probe.sentNanos());
                        this.acceptedToLine.recordValue(now - probe.acceptedNanos());
                        this.probes.remove(probe);
                    }
                }
            }
        }

        private void sleepUntil(long nanos) throws InterruptedException {
            long delay = nanos - System.nanoTime();
            if (delay > 0) {
                Thread.sleep(Duration.ofNanos(delay));
            }
        }

        private Map<String, Object> results(List<long[]> samples, long soldOutAt) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("users", this.users);
            out.put("windowSeconds", this.windowNanos / 1e9);
            out.put("admitPerSecondSetting", this.rate);
            out.put("stock", this.stock);
            long entered = 0;
            for (int i = 0; i < this.slots; i++) {
                entered += this.enters.get(i);
            }
            out.put("entered", entered);
            out.put("enterSeconds", Figures.round3(Math.max(0, this.lastEnter.get() - this.start) / 1e9));
            out.put("enter503Retries", this.retried503.get());
            out.put("failedEnters", this.failedEnters.get());
            out.put("enterLatency", Latency.of(this.enterLatency));
            out.put("enterToWaitingPipeline", Latency.of(this.pipeline));
            out.put("acceptedToWaiting", Latency.of(this.acceptedToLine));
            out.put("enterToWaitingObservedByPoll", Latency.of(this.observed));
            out.put("booked", this.booked.get());
            out.put("soldOut409", this.soldOut.get());
            out.put("rejected403", this.rejected.get());
            out.put("expired", this.expired.get());
            out.put("httpErrors", this.httpErrors.get());
            out.put("bookingLatency", Latency.of(this.bookLatency));
            double ideal = this.stock / (double) this.rate;
            out.put("idealSellOutSeconds", ideal);
            if (soldOutAt > 0) {
                double actual = (soldOutAt - this.start) / 1e9;
                out.put("sellOutSeconds", Figures.round3(actual));
                out.put("sellOutRatio", Figures.round3(ideal / actual));
            }
            else {
                out.put("sellOutSeconds", null);
                out.put("error", "not sold out within the timeout");
            }
            // Admission rate: from the first admission to the sale's end, leaving out the first second, in which the
            // bucket starts full (a one-second burst by design).
            long[] first = samples.stream().filter(s -> s[1] > 0).findFirst().orElse(null);
            long[] last = samples.getLast();
            if (first != null && last[0] > first[0]) {
                long[] from = first;
                for (long[] sample : samples) {
                    if (sample[0] >= first[0] + 1_000) {
                        from = sample;
                        break;
                    }
                }
                if (last[0] - from[0] < 2_000) {
                    from = first;
                }
                double measured = (last[1] - from[1]) / ((last[0] - from[0]) / 1000.0);
                out.put("admittedPerSecond", Math.round(measured));
                out.put("admissionAccuracy", Figures.round3(measured / this.rate));
                out.put("admittedTotal", last[1]);
            }
            long totalPolls = 0;
            long peak = 0;
            List<Map<String, Object>> timeline = new ArrayList<>();
            int lastSecond = (int) Math.min(this.slots - 1, last[0] / 1000);
            for (int second = 0; second <= lastSecond; second++) {
                totalPolls += this.polls.get(second);
                peak = Math.max(peak, this.polls.get(second));
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("second", second);
                row.put("enters", this.enters.get(second));
                row.put("polls", this.polls.get(second));
                row.put("bookings", this.bookings.get(second));
                row.put("admitted", admittedIn(samples, second));
                timeline.add(row);
            }
            for (int second = lastSecond + 1; second < this.slots; second++) {
                totalPolls += this.polls.get(second);
            }
            double runSeconds = Math.max(1, last[0] / 1000.0);
            out.put("polls", totalPolls);
            out.put("pollsPerSecondAverage", Math.round(totalPolls / runSeconds));
            out.put("pollsPerSecondPeak", peak);
            out.put("pollsPerUser", Figures.round3(totalPolls / (double) Math.max(1, entered)));
            out.put("pollLatency", Latency.of(this.pollLatency));
            out.put("timeline", timeline);
            Latency pipeline = Latency.of(this.pipeline);
            this.bench.progress.note(String.format("e2e: sold %,d in %s s (ideal %.1f s); admitted %s/s of %d; "
                    + "enter→waiting p50 %s ms p99 %s ms; %,d polls", this.booked.get(), out.get("sellOutSeconds"), ideal,
                    out.get("admittedPerSecond"), this.rate, pipeline.p50Ms(), pipeline.p99Ms(),
                    totalPolls));
            return out;
        }

        private static long admittedIn(List<long[]> samples, int second) {
            long atStart = 0;
            long atEnd = 0;
            for (long[] sample : samples) {
                if (sample[0] <= second * 1000L) {
                    atStart = sample[1];
                }
                if (sample[0] <= (second + 1) * 1000L) {
                    atEnd = sample[1];
                }
            }
            return atEnd - atStart;
        }
    }
}
