package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ScoredValue;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.loopback.HttpPool;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Figure 7: a product's line followed as Server-Sent Events. Opens one stream for each of the line's first N places
 * at one ingest, measures what they hold (heap after a full collection, resident memory) and what they cost Redis
 * while the line stands still (ingest's Redis calls and places read a second), then moves the line at a set rate and
 * times each admission to the AVAILABLE event at its subscriber.
 *
 * <p>The number of streams is bounded by the open files a process may have here (the service's and the
 * benchmark's alike): a stream is a socket at both ends.
 */
final class StreamsScenario {

    /** Files the service and the benchmark keep open besides the streams. */
    private static final int OTHER_FILES = 1_500;

    private static final int TTL_SECONDS = 600;

    private static final int MANAGEMENT = 18080;

    private StreamsScenario() {
    }

    static Map<String, Object> run(Bench bench) throws Exception {
        Options options = bench.options;
        int fileLimit = Math.min(openFileLimit(Path.of("/proc/self/limits")),
                openFileLimit(Path.of("/proc/" + bench.stack.pids.get("ingest") + "/limits")));
        int wanted = options.streams();
        int streams = Math.min(wanted, fileLimit - OTHER_FILES);
        int rate = options.streamsAdmitPerSecond();
        long product = bench.newProduct();
        List<String> tokens = new ArrayList<>(streams);
        for (int i = 0; i < streams; i++) {
            tokens.add(bench.codec.issue(product, "sse-" + bench.runId + "-" + i).value());
        }
        // one place held for 10 minutes: the line stands still until the rate phase raises maxActive
        bench.putQueue(product, 1, rate, TTL_SECONDS, true);
        bench.fillLine(product, tokens);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("wanted", wanted);
        out.put("openFileLimit", fileLimit);
        long ingest = bench.stack.pids.get("ingest");
        Map<String, Long> before = memory(ingest);
        try (EventStreamClients clients = new EventStreamClients(options.host(), Bench.INGEST, 400)) {
            bench.progress.phase("streams: opening " + streams + " event streams at ingest", streams / 2_000.0 + 5);
            long openFrom = System.nanoTime();
            for (int i = 0; i < streams; i++) {
                clients.open(bench.codec.verify(tokens.get(i)).orElseThrow().userId(),
                        "/api/v1/queues/" + product + "/entries/" + tokens.get(i) + "/events");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (told(clients) + ended(clients) < streams && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            out.put("streams", streams);
            out.put("secondsToOpen", Math.round((System.nanoTime() - openFrom) / 1e7) / 100.0);
            out.put("openWithFirstEvent", told(clients));
            out.put("toldToPollOrFailed", clients.streams().stream().filter((s) -> s.toldToPoll).count());
            out.put("endedWhileOpening", ended(clients));

            bench.progress.phase("streams: memory and Redis calls while the line stands still", 15);
            Map<String, Long> held = memory(ingest);
            histogram(ingest, options.rawDir().resolve("streams-heap-histogram.txt"));
            out.put("heapBeforeMiB", held.get("heap") == null ? null : before.get("heap") / 1_048_576);
            out.put("heapHeldMiB", held.get("heap") == null ? null : held.get("heap") / 1_048_576);
            out.put("rssBeforeMiB", before.get("rss") / 1_048_576);
            out.put("rssHeldMiB", held.get("rss") / 1_048_576);
            long open = told(clients);
            if (open > 0) {
                out.put("heapBytesPerStream", (held.get("heap") - before.get("heap")) / open);
                out.put("rssBytesPerStream", (held.get("rss") - before.get("rss")) / open);
            }
            Map<String, Double> from = ingestCounters(options.host());
            long quietFrom = System.nanoTime();
            Thread.sleep(10_000);
            Map<String, Double> to = ingestCounters(options.host());
            double seconds = (System.nanoTime() - quietFrom) / 1e9;
            out.put("redisCallsPerSecond", Math.round((to.get("calls") - from.get("calls")) / seconds));
            out.put("placesReadPerSecond", Math.round((to.get("reads") - from.get("reads")) / seconds));

            int phaseSeconds = options.streamsAdmitSeconds();
            bench.progress.phase("streams: the line moves at " + rate + "/s for " + phaseSeconds
                    + " s; admission to AVAILABLE at the subscriber", phaseSeconds + 5);
            long admitFrom = System.currentTimeMillis();
            bench.putQueue(product, streams, rate, TTL_SECONDS, true);
            Thread.sleep(phaseSeconds * 1_000L);
            long admitTo = System.currentTimeMillis();
            // the last admissions' events are still on their way
            Thread.sleep(3_000);
            out.putAll(admissionToEvent(bench, product, clients, admitFrom, admitTo));
            out.put("stillOpenAtEnd", clients.streams().stream().filter((s) -> !s.ended).count());
        }
        out.put("admitPerSecond", rate);
        return out;
    }

    /** Each admission of the phase, from the entry's score (its expiry), to the AVAILABLE event at its stream. */
    private static Map<String, Object> admissionToEvent(Bench bench, long product, EventStreamClients clients,
            long from, long to) {
        Map<String, EventStreamClients.Stream> byUser = new HashMap<>();
        for (EventStreamClients.Stream stream : clients.streams()) {
            byUser.put(stream.userId, stream);
        }
        Histogram latency = Latency.histogram();
        long admitted = 0;
        long missed = 0;
        for (ScoredValue<String> entry : bench.redis.sync.zrangeWithScores(QueueKeys.of(product).entry(), 0, -1)) {
            long admittedAt = (long) entry.getScore() - TTL_SECONDS * 1_000L;
            EventStreamClients.Stream stream = byUser.get(entry.getValue());
            if (admittedAt < from || admittedAt > to || stream == null || stream.firstEventAt == 0) {
                continue;
            }
            admitted++;
            if (stream.availableAt == 0) {
                missed++;
                continue;
            }
            latency.recordValue(TimeUnit.MILLISECONDS.toNanos(Math.max(0, stream.availableAt - admittedAt)));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("admitted", admitted);
        out.put("availableNotTold", missed);
        out.put("admissionToAvailable", Latency.of(latency));
        return out;
    }

    private static long told(EventStreamClients clients) {
        return clients.streams().stream().filter((s) -> s.firstEventAt > 0 && !s.ended).count();
    }

    private static long ended(EventStreamClients clients) {
        return clients.streams().stream().filter((s) -> s.ended).count();
    }

    /** Heap used after a full collection ({@code jcmd GC.run}) and resident memory, in bytes. */
    private static Map<String, Long> memory(long pid) throws IOException, InterruptedException {
        Path jcmd = jcmd();
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run").redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(60, TimeUnit.SECONDS);
        Map<String, Long> out = new HashMap<>();
        String heapInfo = Machine.commandOutput(List.of(jcmd.toString(), Long.toString(pid), "GC.heap_info"));
        out.put("heap", heapUsed(heapInfo));
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                out.put("rss", Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024);
            }
        }
        return out;
    }

    /** The classes that hold the most of ingest's heap while the streams are open, for whoever wants to cut it. */
    private static void histogram(long pid, Path file) throws IOException {
        Path jcmd = jcmd();
        String text = Machine.commandOutput(List.of(jcmd.toString(), Long.toString(pid), "GC.class_histogram"));
        if (text != null) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("\n", text.lines().limit(60).toList()) + "\n");
        }
    }

    /** The {@code jcmd} beside the {@code java} running the benchmark. */
    private static Path jcmd() {
        return Path.of(ProcessHandle.current().info().command().orElse("java")).resolveSibling("jcmd");
    }

    /** The "used" of G1's "garbage-first heap total …K, used …K" line. */
    static Long heapUsed(String heapInfo) {
        if (heapInfo == null) {
            return null;
        }
        java.util.regex.Matcher used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(heapInfo);
        return used.find() ? Long.parseLong(used.group(1)) * 1024 : null;
    }

    /** Ingest's Redis calls for polls and streams, and the places its streams read, so far. */
    private static Map<String, Double> ingestCounters(String host) throws IOException {
        Map<String, Double> out = new HashMap<>();
        try (HttpPool management = new HttpPool(host, MANAGEMENT, 1)) {
            out.put("calls", measurement(management, "/actuator/metrics/queuegate.status.batch", "COUNT"));
            out.put("reads", measurement(management, "/actuator/metrics/queuegate.streams.reads", "COUNT"));
        }
        return out;
    }

    private static double measurement(HttpPool http, String path, String statistic) throws IOException {
        HttpPool.Response response = http.get(path);
        if (response.status() != 200) {
            return 0;
        }
        for (JsonNode m : JsonMapper.shared().readTree(response.body()).get("measurements")) {
            if (m.get("statistic").asString().equals(statistic)) {
                return m.get("value").asDouble();
            }
        }
        return 0;
    }

    /** The soft limit of open files in a /proc/PID/limits file. */
    private static int openFileLimit(Path limits) throws IOException {
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                return Integer.parseInt(line.substring(25).trim().split("\\s+")[0]);
            }
        }
        return Integer.MAX_VALUE;
    }
}
