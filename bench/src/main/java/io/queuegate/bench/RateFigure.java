package io.queuegate.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rate scenario (ingest or status) as a run's JSON holds it: each endpoint's rounds combined, keyed
 * {@link #PLAIN_NOOP}, {@link #IN_APP_NOOP}, {@link #SEED} and {@link #QUEUEGATE}, and the ratios between them that
 * the report and the chart judge. A ratio is null when either side was not measured. Runs saved before the yardstick
 * apps existed held only the in-app no-op ({@code yardstick}) and the endpoint ({@code target}); they read as those
 * two endpoints.
 */
final class RateFigure {

    /** The plain no-op Spring Boot app: the HTTP stack alone. */
    static final String PLAIN_NOOP = "plainNoop";

    /** ingest's own no-op endpoint: its HTTP front and JSON, the stack enters and polls are answered on, no work. */
    static final String IN_APP_NOOP = "inAppNoop";

    /** The seed design: one synchronous ZADD per enter, two lookups per poll. */
    static final String SEED = "seed";

    /** Queuegate's endpoint. */
    static final String QUEUEGATE = "queuegate";

    /** The order the endpoints are run and shown in: yardsticks first, from the least work to the most. */
    static final List<String> ORDER = List.of(PLAIN_NOOP, IN_APP_NOOP, SEED, QUEUEGATE);

    private final Map<?, ?> scenario;

    private final Map<?, ?> endpoints;

    private final List<Map<?, ?>> rounds;

    private RateFigure(Map<?, ?> scenario, Map<?, ?> endpoints, List<Map<?, ?>> rounds) {
        this.scenario = scenario;
        this.endpoints = endpoints;
        this.rounds = rounds;
    }

    /** The scenario's figure, or null when it did not run or failed. */
    static RateFigure of(Object scenario) {
        if (!(scenario instanceof Map<?, ?> s) || s.get("error") != null) {
            return null;
        }
        if (s.get("endpoints") instanceof Map<?, ?> endpoints) {
            List<Map<?, ?>> rounds = new ArrayList<>();
            if (s.get("rounds") instanceof List<?> list) {
                list.forEach(round -> rounds.add((Map<?, ?>) round));
            }
            return new RateFigure(s, endpoints, rounds);
        }
        return fromYardstickAndTarget(s);
    }

    private static RateFigure fromYardstickAndTarget(Map<?, ?> s) {
        Map<String, Object> endpoints = new LinkedHashMap<>();
        List<Map<?, ?>> rounds = new ArrayList<>();
        List<?> yardRounds = s.get("yardstickRounds") instanceof List<?> l ? l : List.of();
        List<?> targetRounds = s.get("targetRounds") instanceof List<?> l ? l : List.of();
        for (int i = 0; i < Math.max(yardRounds.size(), targetRounds.size()); i++) {
            if (i < yardRounds.size()) {
                rounds.add(numbered(yardRounds.get(i), IN_APP_NOOP, i + 1));
            }
            if (i < targetRounds.size()) {
                rounds.add(numbered(targetRounds.get(i), QUEUEGATE, i + 1));
            }
        }
        labelled(endpoints, IN_APP_NOOP, s.get("yardstick"), yardRounds);
        labelled(endpoints, QUEUEGATE, s.get("target"), targetRounds);
        return new RateFigure(s, endpoints, rounds);
    }

    private static Map<?, ?> numbered(Object round, String key, int number) {
        Map<Object, Object> copy = new LinkedHashMap<>((Map<?, ?>) round);
        copy.put("key", key);
        copy.put("round", number);
        return copy;
    }

    private static void labelled(Map<String, Object> endpoints, String key, Object summary, List<?> rounds) {
        if (summary instanceof Map<?, ?> m) {
            Map<Object, Object> copy = new LinkedHashMap<>(m);
            if (!rounds.isEmpty() && rounds.getFirst() instanceof Map<?, ?> first) {
                copy.putIfAbsent("label", first.get("endpoint"));
            }
            endpoints.put(key, copy);
        }
    }

    /**
     * One of the scenario's own fields: {@code driver}, {@code lineLength} (status), {@code durability} (ingest), or
     * {@code redisScriptCallsPerPoll} (status, runs of older versions).
     */
    Object field(String name) {
        return this.scenario.get(name);
    }

    /** The endpoint's rounds combined, or null when it was not measured. */
    Map<?, ?> endpoint(String key) {
        return this.endpoints.get(key) instanceof Map<?, ?> m ? m : null;
    }

    /** The keys of the endpoints measured, in {@link #ORDER}. */
    List<String> measured() {
        return ORDER.stream().filter(key -> endpoint(key) != null).toList();
    }

    /** Every measured round in the order run, each with its {@code key} and {@code round} number. */
    List<Map<?, ?>> rounds() {
        return this.rounds;
    }

    String label(String key) {
        Object label = Report.at(endpoint(key), "label");
        return label == null ? key : label.toString();
    }

    /** {@code measured}'s requests per second ÷ {@code yardstick}'s. */
    Double rateRatio(String measured, String yardstick) {
        return ratio(Report.at(endpoint(measured), "perSecond"), Report.at(endpoint(yardstick), "perSecond"));
    }

    /** CPU time per request of {@code process} serving {@code key}, in µs. */
    Double cpuMicros(String key, String process) {
        return Report.at(endpoint(key), "cpuMicrosPerRequest", process) instanceof Number n ? n.doubleValue() : null;
    }

    /** The ingest JVM's CPU per Queuegate request ÷ the plain no-op app's CPU per request of its own. */
    Double ingestCpuToPlainNoop() {
        return ratio(cpuMicros(QUEUEGATE, "ingest"), cpuMicros(PLAIN_NOOP, Yardsticks.App.PLAIN_NOOP.process));
    }

    /** Every ratio of the figure, for the JSON; null where a side was not measured. */
    Map<String, Object> ratios() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("queuegateToPlainNoop", rateRatio(QUEUEGATE, PLAIN_NOOP));
        out.put("queuegateToSeed", rateRatio(QUEUEGATE, SEED));
        out.put("queuegateToInAppNoop", rateRatio(QUEUEGATE, IN_APP_NOOP));
        out.put("seedToPlainNoop", rateRatio(SEED, PLAIN_NOOP));
        out.put("inAppNoopToPlainNoop", rateRatio(IN_APP_NOOP, PLAIN_NOOP));
        out.put("ingestCpuToPlainNoopCpu", ingestCpuToPlainNoop());
        return out;
    }

    private static Double ratio(Object measured, Object yardstick) {
        if (!(measured instanceof Number m) || !(yardstick instanceof Number y) || y.doubleValue() <= 0) {
            return null;
        }
        return Figures.round3(m.doubleValue() / y.doubleValue());
    }
}
