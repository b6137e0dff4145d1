package io.queuegate.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the CPU went during a phase, from {@code /proc}: each known process's user+system time, and the machine's
 * busy time. What the known processes do not account for is the load generator (this JVM or wrk) and the rest of
 * the machine. Voluntary plus involuntary context switches are summed over each process's threads.
 */
final class CpuMeter {

    /** Clock ticks per second of /proc times; 100 on every Linux this runs on. */
    private static final double TICKS = 100.0;

    record Snapshot(long nanos, Map<String, Long> ticks, Map<String, Long> switches, long busy, long total) {
    }

    private final Map<String, Long> pids;

    CpuMeter(Map<String, Long> pids) {
        this.pids = new LinkedHashMap<>(pids);
    }

    /** Counts a process that starts during the run (a yardstick app) from the next snapshot on. */
    synchronized void watch(String name, long pid) {
        this.pids.put(name, pid);
    }

    /** Stops counting a process before it ends; a phase must not span the change. */
    synchronized void unwatch(String name) {
        this.pids.remove(name);
    }

    synchronized Snapshot snap() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        Map<String, Long> switches = new LinkedHashMap<>();
        this.pids.forEach((name, pid) -> {
            ticks.put(name, processTicks(pid));
            switches.put(name, contextSwitches(pid));
        });
        long busy = 0;
        long total = 0;
        try {
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            for (int i = 1; i < cpu.length && i <= 8; i++) {
                long value = Long.parseLong(cpu[i]);
                total += value;
                if (i != 4 && i != 5) {
                    busy += value;
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            // no /proc: the split stays empty
        }
        return new Snapshot(System.nanoTime(), ticks, switches, busy, total);
    }

    /** Cores used per process over the interval, plus {@code other} and {@code idle}, and switches per second. */
    static Map<String, Object> between(Snapshot a, Snapshot b) {
        double seconds = Math.max(1e-9, (b.nanos() - a.nanos()) / 1e9);
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Double> cores = new LinkedHashMap<>();
        double known = 0;
        for (String name : a.ticks().keySet()) {
            double used = (b.ticks().getOrDefault(name, 0L) - a.ticks().get(name)) / TICKS / seconds;
            cores.put(name, round(used));
            known += used;
        }
        double machineCores = (b.total() - a.total()) / TICKS / seconds;
        double busy = (b.busy() - a.busy()) / TICKS / seconds;
        cores.put("other", round(Math.max(0, busy - known)));
        cores.put("idle", round(Math.max(0, machineCores - busy)));
        out.put("seconds", round(seconds));
        out.put("cores", cores);
        Map<String, Long> switches = new LinkedHashMap<>();
        for (String name : a.switches().keySet()) {
            // threads that ended between the snapshots take their counts with them: a negative delta means unknown
            long delta = b.switches().getOrDefault(name, 0L) - a.switches().get(name);
            switches.put(name, delta < 0 ? null : Math.round(delta / seconds));
        }
        out.put("contextSwitchesPerSecond", switches);
        return out;
    }

    private static long processTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
        }
        catch (IOException | RuntimeException ex) {
            return 0;
        }
    }

    private static long contextSwitches(long pid) {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                            sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                }
                catch (IOException | RuntimeException ex) {
                    // the thread ended between the listing and the read
                }
            }
        }
        catch (IOException ex) {
            return 0;
        }
        return sum;
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
