package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.queuegate.core.token.TokenProperties;

/**
 * The running stack as {@code ./run.sh} left it: process ids from {@code .local/}, the admin token, the token secret
 * the services use, and each service's JVM options and environment overrides (secrets left out) for the report.
 */
final class Stack {

    static final List<String> SERVICES = List.of("ingest-service", "admission-worker", "booking-service");

    private static final List<String> SECRET_NAMES = List.of("ADMIN_TOKEN", "QUEUEGATE_ADMIN_TOKEN",
            "QUEUE_TOKEN_SECRET", "QUEUEGATE_TOKEN_SECRET");

    final Map<String, Long> pids = new LinkedHashMap<>();

    final Map<String, Object> services = new LinkedHashMap<>();

    final String adminToken;

    final String tokenSecret;

    Stack(Path root, long redisPid) {
        Map<String, String> workerEnv = Map.of();
        for (String service : SERVICES) {
            long pid = readPid(root.resolve(".local/pids/" + service + ".pid"));
            if (pid <= 0 || !Files.exists(Path.of("/proc/" + pid))) {
                throw new IllegalStateException(service + " is not running (no live pid in .local/pids/" + service
                        + ".pid); start the stack with ./run.sh --detach or let ./bench.sh start it");
            }
            this.pids.put(shortName(service), pid);
            Map<String, String> env = environment(pid);
            if (service.equals("admission-worker")) {
                workerEnv = env;
            }
            Map<String, Object> description = new LinkedHashMap<>();
            description.put("pid", pid);
            description.put("jvmOptions", jvmOptions(pid));
            Map<String, String> overrides = new TreeMap<>();
            env.forEach((name, value) -> {
                if ((name.startsWith("SPRING_") || name.startsWith("QUEUEGATE_") || name.startsWith("SERVER_"))
                        && !SECRET_NAMES.contains(name)) {
                    overrides.put(name, value);
                }
            });
            description.put("environment", overrides);
            this.services.put(service, description);
        }
        long kafka = readPid(root.resolve(".local/kafka/kafka.pid"));
        if (kafka > 0 && Files.exists(Path.of("/proc/" + kafka))) {
            this.pids.put("kafka", kafka);
        }
        if (redisPid > 0) {
            this.pids.put("redis", redisPid);
        }
        this.pids.put("bench", ProcessHandle.current().pid());
        this.adminToken = firstNonBlank(System.getenv("ADMIN_TOKEN"), read(root.resolve(".local/admin-token")),
                workerEnv.get("QUEUEGATE_ADMIN_TOKEN"), workerEnv.get("ADMIN_TOKEN"));
        String secret = firstNonBlank(workerEnv.get("QUEUEGATE_TOKEN_SECRET"), workerEnv.get("QUEUE_TOKEN_SECRET"),
                System.getenv("QUEUE_TOKEN_SECRET"), read(root.resolve(".local/token-secret")));
        this.tokenSecret = secret != null ? secret : TokenProperties.DEV_SECRET;
    }

    static String shortName(String service) {
        return switch (service) {
            case "ingest-service" -> "ingest";
            case "admission-worker" -> "worker";
            case "booking-service" -> "booking";
            default -> service;
        };
    }

    private static long readPid(Path file) {
        String text = read(file);
        if (text == null) {
            return -1;
        }
        String digits = text.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? -1 : Long.parseLong(digits);
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file).trim() : null;
        }
        catch (IOException ex) {
            return null;
        }
    }

    private static Map<String, String> environment(long pid) {
        Map<String, String> env = new LinkedHashMap<>();
        try {
            for (String pair : new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ"))).split("\0")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        catch (IOException ex) {
            // another user's process: nothing to report
        }
        return env;
    }

    private static List<String> jvmOptions(long pid) {
        List<String> options = new ArrayList<>();
        for (String arg : commandLine(pid)) {
            if (arg.equals("-jar")) {
                break;
            }
            if (arg.startsWith("-")) {
                options.add(arg);
            }
        }
        return options;
    }

    /**
     * How a service was started up to its jar: the {@code java} binary it runs (from {@code /proc}, so the same JDK
     * whatever this JVM's PATH) and every JVM option, for a yardstick app to run on the same terms.
     */
    List<String> launcher(String service) {
        long pid = this.pids.get(shortName(service));
        List<String> launcher = new ArrayList<>();
        try {
            launcher.add(Files.readSymbolicLink(Path.of("/proc/" + pid + "/exe")).toString());
        }
        catch (IOException ex) {
            launcher.add(ProcessHandle.current().info().command().orElse("java"));
        }
        List<String> args = commandLine(pid);
        for (int i = 1; i < args.size() && !args.get(i).equals("-jar"); i++) {
            launcher.add(args.get(i));
        }
        return launcher;
    }

    private static List<String> commandLine(long pid) {
        try {
            return List.of(new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"))).split("\0"));
        }
        catch (IOException ex) {
            return List.of();
        }
    }

    private static String firstNonBlank(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return null;
    }
}
