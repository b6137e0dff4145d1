package io.queuegate.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A {@code redis-server} process of one test's own, on a free loopback port, for faults that must not reach the
 * shared Redis: paused ({@code CLIENT PAUSE}), frozen ({@code SIGSTOP}) or killed while its caller works. Closing it
 * kills the process and deletes its folder.
 */
public final class PrivateRedis implements AutoCloseable {

    private final Path directory;

    private final int port;

    private final Process server;

    private final List<LettuceConnectionFactory> factories = new ArrayList<>();

    private PrivateRedis(Path directory, int port, Process server) {
        this.directory = directory;
        this.port = port;
        this.server = server;
    }

    /** Starts one and waits until it answers. */
    public static PrivateRedis start() {
        try {
            Path directory = Files.createTempDirectory("private-redis");
            int port = freePort();
            Path log = directory.resolve("redis.log");
            Process server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind",
                    "127.0.0.1", "--dir", directory.toString(), "--save", "", "--appendonly", "no", "--logfile",
                    log.toString())
                .start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::destroyForcibly, "private-redis-kill"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!(Files.exists(log) && Files.readString(log).contains("Ready to accept connections"))) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    server.destroyForcibly();
                    throw new IllegalStateException("redis-server did not start on port " + port + ": "
                            + (Files.exists(log) ? Files.readString(log) : "no log"));
                }
                Thread.sleep(20);
            }
            return new PrivateRedis(directory, port, server);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    public int port() {
        return this.port;
    }

    /** A template on a connection of its own, with the command timeout the services configure. */
    public StringRedisTemplate template(Duration commandTimeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", this.port),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        this.factories.add(factory);
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }

    /** {@code CLIENT PAUSE ms ALL}, sent on a connection of its own: every client's commands wait that long. */
    public void pause(Duration duration) {
        cli("CLIENT", "PAUSE", Long.toString(duration.toMillis()), "ALL");
    }

    /** SIGSTOP: the server keeps its sockets and answers nothing, as a host stalled by its hypervisor does. */
    public void freeze() {
        signal("-STOP");
    }

    /** SIGCONT after {@link #freeze()}. */
    public void thaw() {
        signal("-CONT");
    }

    private void signal(String signal) {
        run("kill", signal, Long.toString(this.server.pid()));
    }

    private void cli(String... command) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(this.port)));
        args.addAll(List.of(command));
        run(args.toArray(String[]::new));
    }

    private static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        this.factories.forEach(LettuceConnectionFactory::destroy);
        this.server.destroyForcibly();
        try {
            this.server.waitFor(10, TimeUnit.SECONDS);
            try (var files = Files.walk(this.directory)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach((path) -> path.toFile().delete());
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
