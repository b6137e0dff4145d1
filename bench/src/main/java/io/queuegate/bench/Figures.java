package io.queuegate.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The arithmetic every scenario's figures share: rounding, medians, CPU per unit of work. */
final class Figures {

    private Figures() {
    }

    /** Rounded to three decimals, as every ratio and time in seconds is reported. */
    static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** A scenario's figures, gathered as named fields along the way, as the record of its result. */
    static <T> T typed(Map<String, Object> fields, Class<T> result) {
        return BenchRun.JSON.convertValue(fields, result);
    }

    /** CPU microseconds per unit of work, by process, from a {@link CpuMeter#between} split. */
    static Map<String, Double> perUnit(Map<?, ?> cpu, long units) {
        Map<String, Double> out = new LinkedHashMap<>();
        double seconds = ((Number) cpu.get("seconds")).doubleValue();
        ((Map<?, ?>) cpu.get("cores")).forEach((process, cores) -> {
            if (!"idle".equals(process)) {
                out.put((String) process, Math.round(((Number) cores).doubleValue() * seconds / units * 1e7) / 10.0);
            }
        });
        return out;
    }
}
