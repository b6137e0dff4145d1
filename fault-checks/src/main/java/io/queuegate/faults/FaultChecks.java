package io.queuegate.faults;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.QueueKeys;

/**
 * The Java side of faults/run.py, one jar the build compiles with the services' classes:
 * <ul>
 * <li>{@code keys PRODUCT} prints, as one JSON line, the Redis key names of PRODUCT in the default keyspace and the
 * keys that span products, as {@link Keyspace} and {@link QueueKeys} build them: the runner reads Redis by these
 * names and never spells a key itself.</li>
 * <li>{@code forgery ...} runs {@link ForgeryCheck}.</li>
 * <li>{@code passes ...} signs passes as a shop does ({@link Passes}), and {@code visitors ...} enters a crowd of
 * visitors ({@link VisitorEnters}): both for the impersonation scenario.</li>
 * <li>{@code log BOOTSTRAP TOPIC} prints a topic's records up to its end ({@link TopicLog}).</li>
 * <li>{@code admin BOOTSTRAP} answers questions about the cluster's partitions and topic settings
 * ({@link ClusterQuestions}).</li>
 * </ul>
 */
public final class FaultChecks {

    private FaultChecks() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "keys" -> System.out.println(keys(Long.parseLong(rest[0])));
            case "forgery" -> ForgeryCheck.run(rest);
            case "passes" -> Passes.run(rest);
            case "visitors" -> VisitorEnters.run(rest);
            case "log" -> TopicLog.run(rest);
            case "admin" -> ClusterQuestions.run(rest);
            default -> {
                System.err.println("usage: keys PRODUCT | forgery SECRET COUNT GENUINE_TOKENS_FILE ADMIN_TOKEN "
                        + "[INGEST_BASE BOOKING_BASE PRODUCT HTTP_COUNT] | passes [!]PRODUCT:SUB[:priority]... | "
                        + "visitors INGEST_BASE PRODUCT COUNT OUT_FILE SECONDS | log BOOTSTRAP TOPIC [SECONDS] | "
                        + "admin BOOTSTRAP");
                System.exit(2);
            }
        }
    }

    static String keys(long productId) {
        QueueKeys product = Keyspace.DEFAULT.product(productId);
        Map<String, String> names = new LinkedHashMap<>();
        names.put("waiting", product.waiting());
        names.put("entry", product.entry());
        names.put("gone", product.gone());
        names.put("seen", product.seen());
        names.put("settings", product.settings());
        names.put("stats", product.stats());
        names.put("stock", product.stock());
        names.put("bookings", product.bookings());
        names.put("reservations", product.reservations());
        names.put("reservedAt", product.reservedAt());
        names.put("audit", product.audit());
        names.put("auditLease", product.auditLease());
        names.put("admissionLease", product.admissionLease());
        names.put("reservationLease", product.reservationLease());
        names.put("registry", Keyspace.DEFAULT.registry(QueueKeys.REGISTRY));
        names.put("lineEpoch", Keyspace.DEFAULT.lineEpoch());
        names.put("admissionWorkers", Keyspace.DEFAULT.admissionWorkers(QueueKeys.REGISTRY));
        // key names hold no quotes or backslashes (letters, digits, ':', '-', braces), so they need no escaping
        return names.entrySet().stream().map(e -> "\"" + e.getKey() + "\": \"" + e.getValue() + "\"")
            .collect(Collectors.joining(", ", "{", "}"));
    }
}
