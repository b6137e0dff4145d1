package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.queuegate.loopback.HttpPool;

import org.HdrHistogram.Histogram;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Closed-loop HTTP load at a fixed number of connections, for a fixed time, by wrk (preferred: a C event loop costs
 * the shared cores least) or by this JVM's own {@link HttpPool} on virtual threads. Both answer the same summary, so
 * an endpoint and its no-op yardstick are always driven by the same generator in the same run.
 *
 * @param host the host every target listens on
 * @param wrk whether wrk drives the load rather than this JVM
 * @param threads wrk's threads
 * @param connections the connections held open, each with one request in flight
 * @param scratch where wrk's scripts and token lists are written
 */
record Load(String host, boolean wrk, int threads, int connections, Path scratch) {

    /**
     * What to drive: POST a new place per request, or GET {@code base + token} cycling through tokens. A POST is a
     * visitor's first enter, {@code {}}, unless the target takes only user ids its client names ({@code named}: the
     * seed design), which then get a new one per request.
     */
    record Target(String label, int port, String path, boolean post, boolean named, Path tokensFile,
            List<String> tokens) {

        static Target post(String label, int port, String path) {
            return new Target(label, port, path, true, false, null, List.of());
        }

        static Target postNamed(String label, int port, String path) {
            return new Target(label, port, path, true, true, null, List.of());
        }

        static Target get(String label, int port, String base, Path tokensFile, List<String> tokens) {
            return new Target(label, port, base, false, false, tokensFile, tokens);
        }
    }

    String driverName() {
        return this.wrk ? "wrk -t" + this.threads + " -c" + this.connections
                : "Java HttpPool, " + this.connections + " connections on virtual threads";
    }

    /** Drives the target for {@code duration}; {@code tag} makes this run's user ids unique. */
    Map<String, Object> run(Target target, Duration duration, String tag) throws IOException, InterruptedException {
        return this.wrk ? runWrk(target, duration, tag) : runJava(target, duration, tag);
    }

    private Map<String, Object> runWrk(Target target, Duration duration, String tag)
            throws IOException, InterruptedException {
        Files.createDirectories(this.scratch);
        Path script = this.scratch.resolve(target.post() ? "post.lua" : "get.lua");
        // written on every run: a script left by an older build of the benchmark would otherwise drive this one
        Files.writeString(script, Redis.resource("wrk/" + (target.post() ? "post.lua" : "get.lua")) + "\n"
                + Redis.resource("wrk/shared.lua"));
        List<String> command = new ArrayList<>(List.of("wrk", "-t" + this.threads, "-c" + this.connections,
                "-d" + duration.toSeconds() + "s", "--timeout", "10s", "-s", script.toString(),
                "http://" + this.host + ":" + target.port() + (target.post() ? target.path() : "/"), "--"));
        if (!target.post()) {
            command.add(target.tokensFile().toString());
            command.add(target.path());
        }
        else if (target.named()) {
            command.add(tag);  // post.lua without an argument posts {}: a visitor's first enter
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(duration.toSeconds() + 60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("wrk did not finish");
        }
        String line = output.lines().filter(l -> l.startsWith("WRKJSON ")).findFirst()
            .orElseThrow(() -> new IOException("wrk printed no summary:\n" + output));
        JsonNode node = JsonMapper.shared().readTree(line.substring("WRKJSON ".length()));
        long requests = node.get("requests").asLong();
        double seconds = node.get("durationUs").asLong() / 1e6;
        long non2xx = node.get("non2xx").asLong();
        long errors = node.get("connectErrors").asLong() + node.get("readErrors").asLong()
                + node.get("writeErrors").asLong() + node.get("timeouts").asLong();
        return summary(target, requests, non2xx, errors, seconds, new Latency(requests, millis(node, "p50Us"),
                millis(node, "p90Us"), millis(node, "p99Us"), millis(node, "p999Us"), millis(node, "maxUs")));
    }

    private Map<String, Object> runJava(Target target, Duration duration, String tag)
            throws IOException, InterruptedException {
        Histogram latency = Latency.histogram();
        AtomicLong requests = new AtomicLong();
        AtomicLong non2xx = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        try (HttpPool pool = new HttpPool(this.host, target.port(), this.connections).warm(this.connections)) {
            List<Thread> workers = new ArrayList<>();
            long start = System.nanoTime();
            long deadline = start + duration.toNanos();
            for (int w = 0; w < this.connections; w++) {
                int worker = w;
                workers.add(Thread.ofVirtual().start(() -> {
                    long counter = 0;
                int index = target.post() ? 0 : (worker * 7919) % target.tokens().size();
                    while (System.nanoTime() < deadline) {
                        long sent = System.nanoTime();
                        try {
                            HttpPool.Response response;
                            if (target.post()) {
                                response = pool.post(target.path(), !target.named() ? "{}"
                                        : "{\"userId\":\"" + tag + "-" + worker + "-" + (++counter) + "\"}");
                            }
                            else {
                                index = (index + 1) % target.tokens().size();
                                response = pool.get(target.path() + target.tokens().get(index));
                            }
                            latency.recordValue(System.nanoTime() - sent);
                            requests.incrementAndGet();
                            if (response.status() >= 400) {
                                non2xx.incrementAndGet();
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
            double seconds = (System.nanoTime() - start) / 1e9;
            return summary(target, requests.get(), non2xx.get(), errors.get(), seconds, Latency.of(latency));
        }
    }

    private static Map<String, Object> summary(Target target, long requests, long non2xx, long errors, double seconds,
            Latency latency) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("endpoint", target.label());
        out.put("requests", requests);
        out.put("ok", requests - non2xx);
        out.put("non2xx", non2xx);
        out.put("errors", errors);
        out.put("seconds", CpuMeter.round(seconds));
        out.put("perSecond", Math.round((requests - non2xx) / seconds));
        out.put("p50Ms", latency.p50Ms());
        out.put("p90Ms", latency.p90Ms());
        out.put("p99Ms", latency.p99Ms());
        out.put("p999Ms", latency.p999Ms());
        out.put("maxMs", latency.maxMs());
        return out;
    }

    /** One of wrk's percentiles, which it prints in microseconds. */
    private static double millis(JsonNode wrkSummary, String field) {
        return wrkSummary.get(field).asLong() / 1000.0;
    }
}
