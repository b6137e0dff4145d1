package io.queuegate.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the figures into the report between two markers. Everything outside the markers (the analysis, the tuning
 * table) is the authors' and is kept as it is; a report that does not exist yet starts from a short skeleton.
 */
final class Report {

    static final String BEGIN = "<!-- bench:begin (written by ./bench.sh; edits inside are overwritten) -->";

    static final String END = "<!-- bench:end -->";

    private Report() {
    }

    static void write(BenchRun results, Path report, Path root, Path json, Path png) throws Exception {
        String block = BEGIN + "\n" + generate(results, report.toAbsolutePath().getParent(), root, json, png) + END;
        String text;
        if (Files.exists(report)) {
            String old = Files.readString(report);
            int begin = old.indexOf(BEGIN);
            int end = old.indexOf(END);
            text = begin >= 0 && end > begin ? old.substring(0, begin) + block + old.substring(end + END.length())
                    : old + "\n" + block + "\n";
        }
        else {
            text = "# Benchmarks\n\nReproduce with `./bench.sh`.\n\n" + block + "\n";
        }
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
    }

    private static String generate(BenchRun r, Path reportDir, Path root, Path json, Path png) {
        StringBuilder md = new StringBuilder();
        BenchRun.Host machine = r.machine() != null ? r.machine()
                : new BenchRun.Host(null, null, null, null, null, null, null, null, null, null);
        md.append(String.format(Locale.ROOT, "Measured %s with `%s` (%s s, %s mode). Raw figures: [`%s`](%s).%n%n",
                r.startedAt(), r.command(), r.seconds(), r.option("mode"),
                root.relativize(json.toAbsolutePath()), reportDir.relativize(json.toAbsolutePath())));
        md.append(String.format("![Figures of the run](%s)%n%n", reportDir.relativize(png.toAbsolutePath())));

        md.append("### The machine\n\n| | |\n|---|---|\n");
        md.append(String.format("| CPU | %s × %s (%s MHz); the load generator runs on the same cores |%n",
                machine.cpus(), machine.cpuModel(), machine.cpuMHz()));
        md.append(String.format("| Memory | %s GiB |%n", machine.memoryGiB()));
        md.append(String.format("| Kernel | %s |%n", trim(String.valueOf(machine.kernel()), 60)));
        md.append(String.format("| Java | %s |%n", machine.java()));
        md.append(String.format("| Redis, Kafka | Redis %s (shared, no persistence); Kafka %s, one KRaft node |%n",
                machine.redis(), machine.kafka()));
        md.append(String.format("| Load | rate figures: %s; booking and end to end: the bench module's Java client on virtual threads |%n",
                r.rateDriver()));
        RateFigure anyRate = r.statusFigure() != null ? r.statusFigure() : r.ingestFigure();
        if (anyRate != null && anyRate.endpoint(RateFigure.PLAIN_NOOP) != null) {
            md.append("| Yardstick apps | plain no-op (:" + Yardsticks.App.PLAIN_NOOP.port + ") and seed design (:"
                    + Yardsticks.App.SEED_DESIGN.port + "), started by the run for the rate figures with ingest's JVM "
                    + "options (module `yardsticks/`) |\n");
        }
        md.append(String.format("| Code | commit %s, %s tracked files modified |%n",
                r.git() == null ? null : r.git().commit(), r.git() == null ? null : r.git().modifiedFiles()));
        md.append(String.format("| Load average at start | %s |%n", machine.loadAverageAtStart()));
        if (r.option("renice") != null) {
            md.append(String.format("| Priority | the stack and the generator ran at nice %s (`--renice`): the machine was "
                    + "shared with other work |%n", r.option("renice")));
        }
        if (at(r.background(), "cores") instanceof Map<?, ?> idle) {
            double busy = 0;
            for (Map.Entry<?, ?> e : idle.entrySet()) {
                if (!"idle".equals(e.getKey()) && e.getValue() instanceof Number n) {
                    busy += n.doubleValue();
                }
            }
            md.append(String.format(Locale.ROOT, "| Background, stack idle (3 s before the run) | %.2f cores busy, of "
                    + "which %s outside the stack, Kafka, Redis and the generator |%n", busy, idle.get("other")));
        }
        md.append('\n');

        md.append("### Figures\n\n");
        md.append("| # | Figure | Measured | Yardstick, same run | Ratio | Target | Holds |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        figures(md, r);

        md.append("\n### Where the CPU went\n\nCores in use (of ").append(machine.cpus())
            .append(") averaged over each measured phase, from `/proc`; *other* is the load generator (wrk or the ")
            .append("bench JVM's share not listed) and the rest of the machine.\n\n");
        cpu(md, r);

        md.append("\nCPU time per request (µs), the same split: a figure that other work on the machine disturbs less "
                + "than a rate does.\n\n");
        cpuPerRequest(md, r);

        md.append("\n### Details\n\n");
        details(md, r);
        md.append("\n### Configuration of the services during the run\n\n");
        services(md, r);
        return md.toString();
    }

    private static void figures(StringBuilder md, BenchRun r) {
        RateFigure ingest = r.ingestFigure();
        if (ingest != null) {
            rateRows(md, "1", "Ingest: durable enters/s, each 202 acknowledged by Kafka (acks=all)", ingest, "POST",
                    "enter", Targets.ENTERS_TO_PLAIN_NOOP, Targets.ENTERS_TO_SEED,
                    "one synchronous `ZADD` per enter, nothing durable but Redis");
        }
        else {
            md.append(failed("1", "Ingest", r.ingest() == null ? null : error(r.ingest().get("error"))));
        }
        DrainFigure drain = r.drain();
        if (drain != null && drain.measured()) {
            String zadd = String.format("`redis-benchmark` ZADD -P 64 -c 50: %,d ops/s", num(drain.yardstickOpsPerSecond()));
            DrainFigure.Backlog backlog = drain.backlog();
            if (backlog != null && backlog.error() == null) {
                md.append(row("2a", String.format("Burst drain from the log: %,d events held in Kafka, then the writer "
                        + "released until all are in `waiting`", num(backlog.events())),
                        String.format("%s s → %,d events/s", backlog.secondsUntilAllWaiting(),
                                num(backlog.eventsPerSecond())),
                        zadd, backlog.ratio(), Targets.DRAIN_TO_ZADD, backlog.ratio()));
            }
            else {
                md.append(failed("2a", "Burst drain from the log", backlog == null ? null : error(backlog.error())));
            }
            md.append(row("2b", String.format("Burst produced and drained: %,d events from the first send until all "
                    + "are in `waiting`", num(drain.events())),
                    String.format("%s s → %,d events/s (produced in %s s)", drain.secondsUntilAllWaiting(),
                            num(drain.eventsPerSecond()), drain.produceSeconds()),
                    zadd, drain.ratio(), null, null));
        }
        else {
            md.append(failed("2", "Burst drain", drain == null ? null : error(drain.error())));
        }
        RateFigure status = r.statusFigure();
        if (status != null) {
            Object calls = at(status.endpoint(RateFigure.QUEUEGATE), "redisCallsPerRequest");
            Object seedCalls = at(status.endpoint(RateFigure.SEED), "redisCallsPerRequest");
            rateRows(md, "3", String.format("Status: polls/s on a %,d-long line; Redis calls per poll: %s%s",
                    num(status.field("lineLength")), calls != null ? calls : status.field("redisScriptCallsPerPoll"),
                    seedCalls == null ? "" : " (seed design: " + seedCalls + ")"), status, "GET", "poll",
                    Targets.POLLS_TO_PLAIN_NOOP, null, "`ZSCORE` in entry, then `ZRANK` in waiting, per poll");
        }
        else {
            md.append(failed("3", "Status", r.status() == null ? null : error(r.status().get("error"))));
        }
        AdmissionFigure admission = r.admission();
        if (admission != null && admission.measured()) {
            md.append(row("4", String.format("Admission: one tick promoting %,d tokens", num(admission.batch())),
                    String.format("%s ms → %,d tokens/s", ms(admission.tickMs()), num(admission.tokensPerSecond())),
                    String.format("bare ZPOPMIN + ZADD script: %s ms", ms(admission.bareMs())), admission.ratio(),
                    num(admission.batch()) == Targets.ADMISSION_BATCH ? Targets.ADMISSION_TICK_MS : null,
                    admission.tickMs()));
        }
        else {
            md.append(failed("4", "Admission", admission == null ? null : error(admission.error())));
        }
        BookingFigure booking = r.booking();
        if (booking != null && booking.measured()) {
            md.append(row("5", String.format("Booking: %,d buyers for %,d units of one product; exactly the stock sold: %s",
                    num(booking.attempts()), num(booking.stock()), booking.exactlyStockSold()),
                    String.format("%,d bookings/s, p50 %s ms, p99 %s ms", num(booking.bookingsPerSecond()),
                            p50(booking.latency()), p99(booking.latency())),
                    "no-op POST, same Java client " + rate(booking.yardstick()), booking.ratio(), null, null));
        }
        else {
            md.append(failed("5", "Booking", booking == null ? null : error(booking.error())));
        }
        EndToEndFigure e2e = r.e2e();
        if (e2e != null && e2e.measured()) {
            // a sale that did not sell out in time still measured everything but the sell-out time
            boolean soldOut = e2e.sellOutSeconds() != null;
            md.append(row("6a", String.format("End to end: %,d users enter within %s s; time to sell %,d units",
                    num(e2e.users()), e2e.windowSeconds(), num(e2e.stock())),
                    soldOut ? e2e.sellOutSeconds() + " s"
                            : String.format("**not sold out** before the timeout: %,d of %,d units booked, %,d of "
                                    + "%,d users entered", num(e2e.booked()), num(e2e.stock()),
                                    num(e2e.entered()), num(e2e.users())),
                    String.format("stock ÷ admitPerSecond = %s s", e2e.idealSellOutSeconds()),
                    soldOut ? e2e.sellOutRatio() : null, null, null));
            md.append(row("6b", "End to end: admitted per second, after the first second",
                    String.format("%,d/s", num(e2e.admittedPerSecond())),
                    String.format("setting %,d/s", num(e2e.admitPerSecondSetting())), e2e.admissionAccuracy(),
                    null, null));
            md.append(row("6c", "End to end: enter request → in the line (probe, 1 user in 100, 10 ms resolution)",
                    String.format("p50 %s ms, p99 %s ms (from the 202: p50 %s ms, p99 %s ms)",
                            p50(e2e.enterToWaitingPipeline()), p99(e2e.enterToWaitingPipeline()),
                            p50(e2e.acceptedToWaiting()), p99(e2e.acceptedToWaiting())),
                    String.format("first poll seeing WAITING: p50 %s ms, p99 %s ms",
                            p50(e2e.enterToWaitingObservedByPoll()), p99(e2e.enterToWaitingObservedByPoll())),
                    null, null, null));
            md.append(row("6d", "End to end: poll load",
                    String.format("%,d polls, %s per user, %,d/s average, %,d/s peak", num(e2e.polls()),
                            e2e.pollsPerUser(), num(e2e.pollsPerSecondAverage()), num(e2e.pollsPerSecondPeak())),
                    String.format("%,d enters over %s s", num(e2e.entered()), e2e.enterSeconds()), null, null,
                    null));
        }
        else {
            md.append(failed("6", "End to end", e2e == null ? null : error(e2e.error())));
        }
        StreamsFigure streams = r.streams();
        if (streams != null && streams.measured()) {
            Latency told = streams.admissionToAvailable();
            md.append(row("8a", String.format("Event streams held open at one ingest (%,d asked; open files allowed "
                    + "here: %,d)", num(streams.wanted()), num(streams.openFileLimit())),
                    String.format("%,d open, each told its first event; heap %s → %s MiB after a full GC (%s B a "
                            + "stream), resident %s B a stream", num(streams.openWithFirstEvent()),
                            streams.heapBeforeMiB(), streams.heapHeldMiB(), streams.heapBytesPerStream(),
                            streams.rssBytesPerStream()),
                    String.format("Redis: %,d calls/s reading %,d places/s while the line stands still",
                            num(streams.redisCallsPerSecond()), num(streams.placesReadPerSecond())),
                    null, Targets.STREAMS_HELD, streams.openWithFirstEvent()));
            md.append(row("8b", String.format("Admission → AVAILABLE event at the subscriber, the line moving at %s/s "
                    + "under %,d streams", streams.admitPerSecond(), num(streams.openWithFirstEvent())),
                    told == null ? "not measured" : String.format("p50 %s ms, p99 %s ms, max %s ms (%,d admissions; "
                            + "%s not told)", told.p50Ms(), told.p99Ms(), told.maxMs(), num(streams.admitted()),
                            streams.availableNotTold()),
                    "—", null, Targets.ADMISSION_TO_EVENT_P99_MS, told == null ? null : told.p99Ms()));
        }
        else if (streams != null) {
            md.append(failed("8", "Event streams", error(streams.error())));
        }
        MemoryFigure memory = r.memory();
        if (memory != null && memory.measured()) {
            md.append(row("7", String.format("Memory: Redis bytes per waiting user at %,d waiting", num(memory.waiting())),
                    String.format("%s B (all the product's keys)", memory.bytesPerWaitingUser()),
                    String.format("bare ZSet of the same tokens: %s B/member", memory.bareZsetBytesPerMember()),
                    memory.ratio() + " ×", Targets.BYTES_PER_WAITING_USER, memory.bytesPerWaitingUser()));
        }
    }

    /**
     * A rate figure's rows: Queuegate against the plain no-op (a), against the seed design (b), the ingest JVM's CPU
     * per request against the plain no-op app's (c), and the two other yardsticks against the plain no-op (d, e), so
     * that a reader sees what the seed's design and Queuegate's filters cost on their own.
     */
    private static void rateRows(StringBuilder md, String number, String figure, RateFigure f, String method,
            String request, Target toPlainNoop, Target toSeed, String seedDesign) {
        Map<?, ?> queuegate = f.endpoint(RateFigure.QUEUEGATE);
        Map<?, ?> plain = f.endpoint(RateFigure.PLAIN_NOOP);
        Map<?, ?> seed = f.endpoint(RateFigure.SEED);
        Object plainRatio = f.rateRatio(RateFigure.QUEUEGATE, RateFigure.PLAIN_NOOP);
        md.append(row(number + "a", figure, rate(queuegate), "plain no-op " + method + " " + rate(plain), plainRatio,
                toPlainNoop, plainRatio));
        Object seedRatio = f.rateRatio(RateFigure.QUEUEGATE, RateFigure.SEED);
        md.append(row(number + "b", String.format("%s ÷ the seed design (%s)", capitalized(request) + "s/s", seedDesign),
                perSecond(queuegate), "seed design " + rate(seed), seedRatio, toSeed, seedRatio));
        Object cpuRatio = f.ingestCpuToPlainNoop();
        Double ingestMicros = f.cpuMicros(RateFigure.QUEUEGATE, "ingest");
        Double plainMicros = f.cpuMicros(RateFigure.PLAIN_NOOP, Yardsticks.App.PLAIN_NOOP.process);
        md.append(row(number + "c", "Ingest JVM's CPU per " + request, micros(ingestMicros),
                "plain no-op app's CPU per " + method + ": " + micros(plainMicros), cpuRatio,
                Targets.INGEST_CPU_TO_PLAIN_NOOP, cpuRatio));
        md.append(row(number + "d", "Seed design ÷ plain no-op: what its Redis calls cost", perSecond(seed),
                "plain no-op " + method + " " + perSecond(plain), f.rateRatio(RateFigure.SEED, RateFigure.PLAIN_NOOP),
                null, null));
        md.append(row(number + "e", "In-app no-op ÷ plain no-op: what ingest's HTTP front and JSON cost",
                perSecond(f.endpoint(RateFigure.IN_APP_NOOP)), "plain no-op " + method + " " + perSecond(plain),
                f.rateRatio(RateFigure.IN_APP_NOOP, RateFigure.PLAIN_NOOP), null, null));
    }

    /**
     * One figure's row. {@code judged} is what the target is checked against: the ratio for a figure measured against
     * its yardstick, the measured value itself for an absolute bound (bytes, milliseconds).
     */
    static String row(String number, String figure, String measured, String yardstick, Object ratio, Target target,
            Object judged) {
        Boolean holds = target == null ? null : target.holds(judged);
        return String.format("| %s | %s | %s | %s | %s | %s | %s |%n", number, figure, measured, yardstick,
                ratio == null ? "—" : ratio, target == null ? "—" : target.text(),
                holds == null ? "—" : holds ? "**yes**" : "**no**");
    }

    private static String perSecond(Map<?, ?> summary) {
        return summary == null ? "not measured" : String.format("%,d/s", num(summary.get("perSecond")));
    }

    private static String micros(Double value) {
        return value == null ? "not measured" : String.format(Locale.ROOT, "%s µs", value);
    }

    private static String capitalized(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /** A failed scenario's error; a scenario that ran holds none. */
    private static String error(Object error) {
        return String.valueOf(error);
    }

    private static String failed(String number, String figure, String error) {
        String why = error == null ? "not run" : "failed: " + error;
        return String.format("| %s | %s | %s | | | | |%n", number, figure, trim(why, 120));
    }

    private static String rate(Object summary) {
        Map<?, ?> s = map(summary);
        if (s == null) {
            return "not measured";
        }
        return String.format("%,d/s, p50 %s ms, p99 %s ms", num(s.get("perSecond")), ms(s.get("p50Ms")), ms(s.get("p99Ms")));
    }

    /** The processes of the CPU tables, in the chart's order: the stack, the yardstick apps, the generator. */
    static final List<String> PROCESSES = List.of("ingest", "worker", "booking", "kafka", "redis",
            Yardsticks.App.PLAIN_NOOP.process, Yardsticks.App.SEED_DESIGN.process, "bench", "other");

    private static void cpu(StringBuilder md, BenchRun r) {
        List<String> names = new ArrayList<>(PROCESSES);
        names.add("idle");
        header(md, "Phase", names);
        for (Object[] phase : Chart.cpuPhases(r)) {
            Map<?, ?> cores = (Map<?, ?>) phase[1];
            md.append("| ").append(phase[0]).append(" |");
            for (String n : names) {
                Object v = cores.get(n);
                md.append(' ').append(v == null ? "—" : String.format(Locale.ROOT, "%.2f", ((Number) v).doubleValue())).append(" |");
            }
            md.append('\n');
        }
    }

    private static void cpuPerRequest(StringBuilder md, BenchRun r) {
        header(md, "Requests", PROCESSES);
        List<Object[]> rows = new ArrayList<>();
        for (RateFigure figure : Arrays.asList(r.statusFigure(), r.ingestFigure())) {
            if (figure != null) {
                for (String key : figure.measured()) {
                    rows.add(new Object[] {figure.label(key), at(figure.endpoint(key), "cpuMicrosPerRequest")});
                }
            }
        }
        rows.add(new Object[] {"booking POST", r.booking() == null ? null : r.booking().cpuMicrosPerBooking()});
        rows.add(new Object[] {"burst event, produced and drained (per event)",
            r.drain() == null ? null : r.drain().cpuMicrosPerEvent()});
        rows.add(new Object[] {"backlog event, drained (per event)",
            r.drain() == null || r.drain().backlog() == null ? null : r.drain().backlog().cpuMicrosPerEvent()});
        for (Object[] row : rows) {
            if (!(row[1] instanceof Map<?, ?> us)) {
                continue;
            }
            md.append("| ").append(row[0]).append(" |");
            for (String n : PROCESSES) {
                Object v = us.get(n);
                md.append(' ').append(v == null ? "—" : v).append(" |");
            }
            md.append('\n');
        }
    }

    private static void header(StringBuilder md, String first, List<String> names) {
        md.append("| ").append(first).append(" |");
        names.forEach(n -> md.append(' ').append(n).append(" |"));
        md.append("\n|---|");
        names.forEach(n -> md.append("---|"));
        md.append('\n');
    }

    private static void details(StringBuilder md, BenchRun r) {
        Map<String, RateFigure> rated = new LinkedHashMap<>();
        rated.put("ingest", r.ingestFigure());
        rated.put("status", r.statusFigure());
        for (Map.Entry<String, RateFigure> named : rated.entrySet()) {
            RateFigure figure = named.getValue();
            if (figure == null) {
                continue;
            }
            md.append(String.format("**%s**, rounds in the order run (%s):%n%n", named.getKey(), figure.field("driver")));
            md.append("| Endpoint | Round | ok/s | non-2xx | errors | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|---|\n");
            for (Map<?, ?> round : figure.rounds()) {
                md.append(String.format("| %s | %s | %,d | %s | %s | %s | %s | %s |%n", round.get("endpoint"),
                        round.get("round"), num(round.get("perSecond")), round.get("non2xx"), round.get("errors"),
                        ms(round.get("p50Ms")), ms(round.get("p99Ms")), ms(round.get("maxMs"))));
            }
            if (figure.field("durability") instanceof Map<?, ?> d) {
                md.append(String.format("%nDurability: %,d enters answered 202 in this scenario; %,d are in the line after "
                        + "the writer caught up (holds: %s).%n", num(d.get("accepted202")), num(d.get("inLine")), d.get("holds")));
            }
            md.append('\n');
        }
        DrainFigure drain = r.drain();
        if (drain != null && drain.measured()) {
            md.append(String.format("**drain**: the producer (acks=all, idempotent, linger 5 ms, batch 512 KiB, one "
                    + "partition since the key is the product) sent %,d events in %s s (%,d/s); the first was in the line "
                    + "after %s ms; tokens average %s characters.%n%n", num(drain.events()), drain.produceSeconds(),
                    num(drain.producedPerSecond()), drain.firstInWaitingMs(), drain.averageTokenChars()));
        }
        MemoryFigure memory = r.memory();
        if (memory != null) {
            List<String> parts = new ArrayList<>();
            memory.bytesByKey().forEach((key, bytes) -> parts.add(String.format("`%s` %,d B", key, num(bytes))));
            md.append(String.format("**memory** (`MEMORY USAGE … SAMPLES 0`): %s; `used_memory` grew by %s B per user "
                    + "during the burst (includes allocator slack and other clients).%n%n", String.join(", ", parts),
                    memory.usedMemoryDeltaPerUser()));
        }
        AdmissionFigure admission = r.admission();
        if (admission != null && admission.measured()) {
            md.append(String.format("**admission**: every repeat in ms, the first pays for cold caches: %s (bare: %s).%n%n",
                    admission.allTickMs(), admission.allBareMs()));
        }
        BookingFigure booking = r.booking();
        if (booking != null && booking.measured()) {
            md.append(String.format("**booking**: %,d attempts, %,d booked in %s s, %,d answered 409 sold out, %s 403, "
                    + "%s 503, %s transport errors; stock left %s, booking records %,d.%n%n", num(booking.attempts()),
                    num(booking.booked()), booking.secondsUntilSoldOut(), num(booking.soldOut409()),
                    booking.rejected403(), booking.unavailable503(), booking.errors(),
                    booking.stockLeft(), num(booking.bookingRecords())));
        }
        EndToEndFigure e2e = r.e2e();
        if (e2e != null && e2e.measured()) {
            md.append(String.format("**end to end**: %,d entered (%s enters retried after 503, %s failed); %,d booked, "
                    + "%s told sold out, %s refused, %s expired, %s HTTP errors. Enter latency p50 %s ms, p99 %s ms; "
                    + "poll latency p50 %s ms, p99 %s ms; booking latency p50 %s ms, p99 %s ms. The per-second timeline "
                    + "is in the JSON and the chart.%n", num(e2e.entered()), e2e.enter503Retries(),
                    e2e.failedEnters(), num(e2e.booked()), e2e.soldOut409(), e2e.rejected403(),
                    e2e.expired(), e2e.httpErrors(), p50(e2e.enterLatency()), p99(e2e.enterLatency()),
                    p50(e2e.pollLatency()), p99(e2e.pollLatency()), p50(e2e.bookingLatency()), p99(e2e.bookingLatency())));
        }
    }

    private static void services(StringBuilder md, BenchRun r) {
        Map<?, ?> services = r.services();
        if (services == null) {
            return;
        }
        md.append("| Service | JVM options | Environment overrides, arguments |\n|---|---|---|\n");
        services.forEach((name, value) -> {
            Map<?, ?> s = map(value);
            List<String> env = new ArrayList<>();
            if (map(s.get("environment")) != null) {
                map(s.get("environment")).forEach((k, v) -> env.add("`" + k + "=" + v + "`"));
            }
            if (s.get("arguments") instanceof List<?> arguments) {
                arguments.forEach(argument -> env.add("`" + argument + "`"));
            }
            md.append(String.format("| %s | `%s` | %s |%n", name, String.join(" ", ((List<?>) s.get("jvmOptions"))
                .stream().map(String::valueOf).toList()), String.join(" ", env)));
        });
    }

    private static String p50(Latency latency) {
        return ms(latency == null ? null : latency.p50Ms());
    }

    private static String p99(Latency latency) {
        return ms(latency == null ? null : latency.p99Ms());
    }

    /** Milliseconds for reading: whole above 100, one decimal above 1, else two. */
    static String ms(Object value) {
        if (!(value instanceof Number n)) {
            return "?";
        }
        double v = n.doubleValue();
        return v >= 100 ? String.format(Locale.ROOT, "%,d", Math.round(v))
                : v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    static Object at(Object root, String... path) {
        Object current = root;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(key);
        }
        return current;
    }

    static Map<?, ?> map(Object value) {
        return value instanceof Map<?, ?> m ? m : null;
    }

    static long num(Object value) {
        return value instanceof Number n ? Math.round(n.doubleValue()) : 0;
    }

    private static String trim(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
