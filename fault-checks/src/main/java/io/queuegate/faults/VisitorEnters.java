package io.queuegate.faults;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.queuegate.loopback.HttpPool;

/**
 * The impersonation scenario's crowd of visitors:
 * {@code java -jar queuegate-fault-checks-exec.jar visitors INGEST_BASE PRODUCT COUNT OUT_FILE SECONDS}.
 *
 * <p>Makes COUNT first enters of visitors ({@code {}}) into PRODUCT's line from 64 virtual threads on the
 * benchmark's keep-alive {@link HttpPool}, as many browsers would at a sale's opening, and stops at SECONDS. An enter
 * refused for now (429, 503) or left unanswered is made again, as a browser would, by a new visitor: what counts is
 * the 202s. Writes one line per 202 to OUT_FILE, {@code userId token} as the answer named them, for faults/run.py
 * to check, and prints one JSON line: the 202s, the other answers, the seconds taken.
 */
final class VisitorEnters {

    private static final int WORKERS = 64;

    private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]*)\"");

    private static final Pattern USER_ID = Pattern.compile("\"userId\"\\s*:\\s*\"([^\"]*)\"");

    private VisitorEnters() {
    }

    static void run(String[] args) throws IOException, InterruptedException {
        URI ingest = URI.create(args[0]);
        long product = Long.parseLong(args[1]);
        int count = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        long deadline = System.nanoTime() + (long) (Double.parseDouble(args[4]) * 1e9);
        String path = "/api/v1/queues/" + product + "/entries";
        String[] users = new String[count];
        String[] tokens = new String[count];
        Map<Integer, LongAdder> answers = new ConcurrentHashMap<>();
        LongAdder unanswered = new LongAdder();
        List<String> examples = Collections.synchronizedList(new ArrayList<>());
        AtomicLong next = new AtomicLong();
        long t0 = System.nanoTime();
        try (HttpPool pool = new HttpPool(ingest.getHost(), ingest.getPort(), WORKERS).warm(WORKERS);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < WORKERS; w++) {
                threads.submit(() -> {
                    for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        while (System.nanoTime() < deadline) {
                            int status;
                            String body;
                            try {
                                HttpPool.Response response = pool.post(path, "{}");
                                status = response.status();
                                body = response.body();
                            }
                            catch (IOException ex) {
                                unanswered.increment();
                                note(examples, "unanswered: " + ex);
                                pause(100);
                                continue;
                            }
                            answers.computeIfAbsent(status, k -> new LongAdder()).increment();
                            if (status == 202) {
                                users[(int) i] = first(USER_ID, body);
                                tokens[(int) i] = first(TOKEN, body);
                                break;
                            }
                            note(examples, status + ": " + body);
                            if (status != 429 && status != 503) {
                                break; // refused for good: counted, and not tried again
                            }
                            pause(100);
                        }
                    }
                    return null;
                });
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long accepted = 0;
        try (PrintWriter file = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.US_ASCII))) {
            for (int i = 0; i < count; i++) {
                if (tokens[i] != null) {
                    accepted++;
                    file.print(users[i]);
                    file.print(' ');
                    file.println(tokens[i]);
                }
            }
        }
        StringBuilder codes = new StringBuilder("{");
        answers.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> codes
            .append(codes.length() == 1 ? "" : ", ").append('"').append(e.getKey()).append("\": ")
            .append(e.getValue().sum()));
        codes.append('}');
        System.out.println("{\"enters\": " + count + ", \"accepted\": " + accepted + ", \"seconds\": " + seconds
                + ", \"answers\": " + codes + ", \"unanswered\": " + unanswered.sum() + ", \"examples\": "
                + ForgeryCheck.quote(examples) + "}");
    }

    private static String first(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        return m.find() ? m.group(1) : "";
    }

    private static void note(List<String> examples, String example) {
        if (examples.size() < 5) {
            examples.add(example.length() > 200 ? example.substring(0, 200) : example);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
