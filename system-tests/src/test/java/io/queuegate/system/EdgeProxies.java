package io.queuegate.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real nginx and HAProxy in front of the demo origin, started and stopped by the project's own launcher
 * ({@code ops/edge/edge.sh}), each in a directory of its own under {@code target/edge}. Closing stops every proxy it
 * started.
 */
final class EdgeProxies implements AutoCloseable {

    private static final Path LAUNCHER = Path.of("..", "ops", "edge", "edge.sh").toAbsolutePath().normalize();

    private final List<String[]> started = new ArrayList<>();

    /** A proxy that answers on this port. */
    record Proxy(String kind, int port, Path directory) {

        String url(String path) {
            return "http://127.0.0.1:" + this.port + path;
        }

        String log(String name) {
            Path file = this.directory.resolve(name);
            try {
                return Files.exists(file) ? Files.readString(file) : "";
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** nginx with the demo origin on {@code originPort}, protecting it with the product, asking Queuegate there. */
    Proxy nginx(String queuegate, String waitingRoom, long productId, int originPort) {
        return start("nginx", queuegate, waitingRoom, productId, originPort, "closed");
    }

    /** HAProxy in front of the origin an nginx of this class serves, with this choice while Queuegate is down. */
    Proxy haproxy(String queuegate, String waitingRoom, long productId, int originPort, String fail) {
        return start("haproxy", queuegate, waitingRoom, productId, originPort, fail);
    }

    private Proxy start(String kind, String queuegate, String waitingRoom, long productId, int originPort,
            String fail) {
        int port = Stack.freePort();
        Path directory = Path.of("target", "edge", kind + "-" + port).toAbsolutePath();
        run(Map.of("QUEUEGATE", queuegate, "WAITING_ROOM", waitingRoom, "PRODUCT", Long.toString(productId),
                "ORIGIN_PORT", Integer.toString(originPort), "PORT", Integer.toString(port), "FAIL", fail),
                kind + "-start", directory.toString());
        this.started.add(new String[] { kind + "-stop", directory.toString() });
        return new Proxy(kind, port, directory);
    }

    private static void run(Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("The edge tests need nginx and haproxy (apt-get install -y nginx "
                    + "haproxy; .ci/run does)", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        for (String[] stop : this.started.reversed()) {
            run(Map.of(), stop);
        }
        this.started.clear();
    }
}
