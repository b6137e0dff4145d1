package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The facts about the machine and the software a reader needs to compare a figure with their own. */
final class Machine {

    private Machine() {
    }

    static Map<String, Object> describe(Path root, Map<String, String> redisServer, String wrkVersion) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cpus", Runtime.getRuntime().availableProcessors());
        out.put("cpuModel", cpuinfo("model name"));
        out.put("cpuMHz", cpuinfo("cpu MHz"));
        out.put("memoryGiB", memoryGiB());
        out.put("kernel", firstLine("/proc/version"));
        out.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        out.put("redis", redisServer.getOrDefault("redis_version", "?"));
        out.put("kafka", kafkaVersion(root));
        out.put("wrk", wrkVersion == null ? "not installed" : wrkVersion);
        out.put("loadAverageAtStart", firstLine("/proc/loadavg"));
        return out;
    }

    private static String cpuinfo(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith(field)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        catch (IOException ex) {
            // not Linux
        }
        return "?";
    }

    private static double memoryGiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return Math.round(kib / 1024.0 / 1024.0 * 10) / 10.0;
                }
            }
        }
        catch (IOException ex) {
            // not Linux
        }
        return 0;
    }

    private static String firstLine(String file) {
        try {
            List<String> lines = Files.readAllLines(Path.of(file));
            return lines.isEmpty() ? "?" : lines.getFirst().trim();
        }
        catch (IOException ex) {
            return "?";
        }
    }

    private static String kafkaVersion(Path root) {
        try (var files = Files.list(root.resolve(".local/kafka/libs"))) {
            return files.map(path -> path.getFileName().toString())
                .filter(name -> name.startsWith("kafka_2.13-") && name.endsWith(".jar"))
                .map(name -> name.substring("kafka_2.13-".length(), name.length() - 4))
                .findFirst().orElse("?");
        }
        catch (IOException ex) {
            return "?";
        }
    }

    /** The first line a command prints, or null when it cannot run. */
    static String commandLine(List<String> command) {
        String text = commandOutput(command);
        return text == null || text.isBlank() ? null : text.strip().lines().findFirst().orElse(null);
    }

    /** What a command prints, or null when it cannot run. */
    static String commandOutput(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes());
            process.waitFor(10, TimeUnit.SECONDS);
            return text;
        }
        catch (IOException ex) {
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
