package io.queuegate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.queuegate.loopback.HttpPool;

/**
 * The two yardstick apps of the rate figures (module {@code yardsticks/}), each its own JVM started with the launcher
 * the services run with (the same {@code java} and JVM options), waited for until it answers, and stopped at
 * {@link #close()}, by a shutdown hook when the run is interrupted, or by {@code ./bench.sh} from the pid files when
 * this JVM was killed. The apps get a clean environment: the services' Spring overrides of a run are not theirs.
 */
final class Yardsticks implements AutoCloseable {

    /** Key prefix of the seed design's ZSets, passed to the app so that the benchmark deletes exactly what it wrote. */
    static final String SEED_KEY_PREFIX = "bench-seed:";

    /** The seed design uses the stack's Redis: run.sh's {@code REDIS_PORT}, 6379 unless set. */
    private static final String REDIS_PORT = System.getenv().getOrDefault("REDIS_PORT", "6379");

    /** The seed design's line of a product, as the app names it from {@link #SEED_KEY_PREFIX}. */
    static String seedWaiting(long productId) {
        return SEED_KEY_PREFIX + "waiting:{" + productId + "}";
    }

    /** Every key the seed design writes for a product: its line and its admitted set. */
    static List<String> seedKeys(long productId) {
        return List.of(seedWaiting(productId), SEED_KEY_PREFIX + "entry:{" + productId + "}");
    }

    /** Each app: its module under {@code yardsticks/}, its port, and its name in the CPU tables. */
    enum App {
        PLAIN_NOOP("plain-noop", 8090, "noop-app"),
        SEED_DESIGN("seed-design", 8091, "seed-app");

        final String module;

        final int port;

        final String process;

        App(String module, int port, String process) {
            this.module = module;
            this.port = port;
            this.process = process;
        }

        Path jar(Path root) throws IOException {
            Path target = root.resolve("yardsticks/" + this.module + "/target");
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "queuegate-yardstick-*-exec.jar")) {
                for (Path jar : jars) {
                    return jar;
                }
            }
            catch (IOException ex) {
                // no target directory: not built
            }
            throw new IOException("no executable jar under " + root.relativize(target)
                    + "; build it (./bench.sh without --no-build)");
        }
    }

    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private static final List<String> CONFIG_PREFIXES = List.of("SPRING_", "SERVER_", "QUEUEGATE_", "MANAGEMENT_",
            "LOGGING_");

    private final Path root;

    private final String host;

    private final Map<App, Process> processes = new EnumMap<>(App.class);

    private final Map<App, List<String>> commands = new EnumMap<>(App.class);

    private final Thread stopOnExit = new Thread(this::stopAll, "yardsticks-stop");

    private Yardsticks(Path root, String host) {
        this.root = root;
        this.host = host;
    }

    /**
     * Starts both apps with {@code launcher} ({@code java} and its options, everything before {@code -jar}) and
     * returns once both answer; stops what it started when either does not.
     */
    static Yardsticks start(Path root, List<String> launcher, String host, Progress progress)
            throws IOException, InterruptedException {
        Yardsticks apps = new Yardsticks(root, host);
        Runtime.getRuntime().addShutdownHook(apps.stopOnExit);
        try {
            progress.phase("starting the yardstick apps (plain no-op :" + App.PLAIN_NOOP.port + ", seed design :"
                    + App.SEED_DESIGN.port + ")", 15);
            for (App app : App.values()) {
                apps.launch(app, launcher);
            }
            for (App app : App.values()) {
                apps.awaitAnswer(app);
            }
            return apps;
        }
        catch (IOException | InterruptedException | RuntimeException ex) {
            apps.close();
            throw ex;
        }
    }

    private void launch(App app, List<String> launcher) throws IOException {
        if (portOpen(app.port)) {
            throw new IOException("port " + app.port + " is in use; the " + app.module + " yardstick needs it (a "
                    + "yardstick a killed run left behind is stopped by ./bench.sh)");
        }
        List<String> command = new ArrayList<>(launcher);
        command.add("-jar");
        command.add(app.jar(this.root).toString());
        command.add("--server.port=" + app.port);
        if (app == App.SEED_DESIGN) {
            command.add("--spring.data.redis.host=" + this.host);
            command.add("--spring.data.redis.port=" + REDIS_PORT);
            command.add("--seed.key-prefix=" + SEED_KEY_PREFIX);
        }
        Path log = this.root.resolve(".local/logs/yardstick-" + app.module + ".log");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().keySet().removeIf(name -> CONFIG_PREFIXES.stream().anyMatch(name::startsWith));
        Process process = builder.start();
        this.processes.put(app, process);
        this.commands.put(app, command);
        Path pidFile = pidFile(app);
        Files.createDirectories(pidFile.getParent());
        Files.writeString(pidFile, process.pid() + "\n");
    }

    /** Polls the status path until it answers 200; for the seed design that also proves Redis answers. */
    private void awaitAnswer(App app) throws IOException, InterruptedException {
        Process process = this.processes.get(app);
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the " + app.module + " yardstick exited with " + process.exitValue()
                        + " during start-up; its log:\n" + logTail(app));
            }
            try (HttpPool http = new HttpPool(this.host, app.port, 1)) {
                if (http.get("/api/v1/queues/0/entries/start-up-probe").status() == 200) {
                    return;
                }
            }
            catch (IOException ex) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IOException("the " + app.module + " yardstick did not answer within " + START_LIMIT.toSeconds()
                + " s; its log:\n" + logTail(app));
    }

    /** Process ids by the name the CPU tables give each app. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        this.processes.forEach((app, process) -> pids.put(app.process, process.pid()));
        return pids;
    }

    /** How each app ran, for the report's configuration table. */
    Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        this.commands.forEach((app, command) -> {
            int jar = command.indexOf("-jar");
            Map<String, Object> description = new LinkedHashMap<>();
            description.put("pid", this.processes.get(app).pid());
            description.put("jvmOptions", command.subList(1, jar));
            description.put("arguments", command.subList(jar + 2, command.size()));
            out.put(app.module + " yardstick", description);
        });
        return out;
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(this.stopOnExit);
        }
        catch (IllegalStateException ex) {
            // the JVM is shutting down: the hook is stopping them
        }
        stopAll();
    }

    /** SIGTERM to each, then SIGKILL to any that has not ended after the grace period. */
    private synchronized void stopAll() {
        this.processes.values().forEach(Process::destroy);
        for (Map.Entry<App, Process> each : this.processes.entrySet()) {
            Process process = each.getValue();
            try {
                if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
            catch (InterruptedException ex) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            try {
                Files.deleteIfExists(pidFile(each.getKey()));
            }
            catch (IOException ex) {
                // bench.sh checks the pid's command line before it stops anything
            }
        }
        this.processes.clear();
    }

    private Path pidFile(App app) {
        return this.root.resolve(".local/pids/yardstick-" + app.module + ".pid");
    }

    private String logTail(App app) {
        try {
            List<String> lines = Files.readAllLines(this.root.resolve(".local/logs/yardstick-" + app.module + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
        catch (IOException ex) {
            return "(no log)";
        }
    }

    private boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(this.host, port), 1_000);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }
}
