import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The ACLs of the local SCRAM broker (scripts/kafka.sh with KAFKA_SECURITY=scram), run from source with the broker's
 * jars on the class path, as the admin user:
 * <ul>
 * <li>{@code apply BOOTSTRAP USERS_DIR ACLS_FILE} grants what kafka/acls.txt says, all in one request (granting one
 * again changes nothing).</li>
 * <li>{@code check BOOTSTRAP USERS_DIR CONTROLLER} tries, as each service's user, what its ACLs must refuse:
 * writing the topics another service owns (the queue settings and stock of the sale topic from ingest, enters and
 * leaves from the booking service, bookings and enters from the worker), reading the sale topic from ingest, joining
 * the line writer's consumer group from ingest and the booking service; and connecting without a sign-in (to the
 * broker's port and to the controller's), and with a wrong password. Each refusal must be the one expected (a topic
 * or group authorization error, an authentication error), not some other failure, and the topics' ends must not
 * move; a write each user may do first (a topic under the warm-up prefix, deleted after) shows the credentials work.
 * Prints PASS or FAIL per check and exits 1 when any fails.</li>
 * </ul>
 * It runs against a started stack, whose services made their topics. USERS_DIR holds each user's password in
 * {@code <user>.password}, as scripts/kafka.sh keeps them.
 */
public final class KafkaAcls {

    static final String ADMIN = "queuegate-admin";

    static final String INGEST = "queuegate-ingest";

    static final String ADMISSION = "queuegate-admission";

    static final String BOOKING = "queuegate-booking";

    static final Duration WAIT = Duration.ofSeconds(20);

    /** A client that cannot sign in gets no metadata: its send gives up after this. */
    static final int REFUSED_AFTER_MS = 4_000;

    private final String bootstrap;

    private final Path users;

    private final List<String> failures = new ArrayList<>();

    private int checks;

    KafkaAcls(String bootstrap, Path users) {
        this.bootstrap = bootstrap;
        this.users = users;
    }

    public static void main(String[] args) throws Exception {
        String command = args.length > 0 ? args[0] : "";
        if (command.equals("apply") && args.length == 4) {
            new KafkaAcls(args[1], Path.of(args[2])).apply(Path.of(args[3]));
        }
        else if (command.equals("check") && args.length == 4) {
            System.exit(new KafkaAcls(args[1], Path.of(args[2])).check(args[3]) ? 0 : 1);
        }
        else {
            System.err.println("usage: apply BOOTSTRAP USERS_DIR ACLS_FILE | check BOOTSTRAP USERS_DIR CONTROLLER");
            System.exit(2);
        }
    }

    // --- apply --------------------------------------------------------------------------------------------------

    void apply(Path file) throws Exception {
        List<AclBinding> bindings = parse(Files.readAllLines(file));
        try (Admin admin = Admin.create(client(ADMIN, password(ADMIN)))) {
            admin.createAcls(bindings).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        System.out.println("granted " + bindings.size() + " ACL bindings of " + file.getFileName());
    }

    /** The bindings of kafka/acls.txt: users, operations, resource type, names (a trailing * makes a prefix). */
    static List<AclBinding> parse(List<String> lines) {
        List<AclBinding> bindings = new ArrayList<>();
        for (String line : lines) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            String[] fields = text.split("\\s+");
            if (fields.length < 4) {
                throw new IllegalArgumentException("a grant needs users, operations, resource and names: " + line);
            }
            ResourceType type = switch (fields[2]) {
                case "topic" -> ResourceType.TOPIC;
                case "group" -> ResourceType.GROUP;
                default -> throw new IllegalArgumentException("resource neither topic nor group: " + line);
            };
            for (String user : fields[0].split(",")) {
                for (String operation : fields[1].split(",")) {
                    AclOperation op = AclOperation.fromString(operation);
                    if (op == AclOperation.UNKNOWN || op == AclOperation.ANY) {
                        throw new IllegalArgumentException("unknown operation " + operation + ": " + line);
                    }
                    for (String name : Arrays.asList(fields).subList(3, fields.length)) {
                        boolean prefix = name.endsWith("*");
                        ResourcePattern pattern = new ResourcePattern(type,
                                prefix ? name.substring(0, name.length() - 1) : name,
                                prefix ? PatternType.PREFIXED : PatternType.LITERAL);
                        bindings.add(new AclBinding(pattern,
                                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW)));
                    }
                }
            }
        }
        return bindings;
    }

    // --- check --------------------------------------------------------------------------------------------------

    boolean check(String controller) throws Exception {
        List<String> topics = List.of("queuegate.entries", "queuegate.leaves", "queuegate.sale", "queuegate.bookings",
                "queuegate.audit", "queuegate.admissions");
        String probe = "queuegate.warm-up-0-acl-check.probe";
        try (Admin admin = Admin.create(client(ADMIN, password(ADMIN)))) {
            // a write to a topic that does not exist is refused by a user who may write but not create it: the
            // refusals below prove something only on the topics the services made
            Set<String> existing = admin.listTopics().names().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            List<String> missing = topics.stream().filter((topic) -> !existing.contains(topic)).toList();
            record("the services' topics exist (the check runs against a started stack)", missing.isEmpty(),
                    () -> "missing " + missing);
            if (!missing.isEmpty()) {
                // and a refused write of a user who may create the topic would make it, with the broker's defaults
                return summary();
            }
            Map<TopicPartition, Long> before = ends(admin, topics);
            for (String user : List.of(INGEST, ADMISSION, BOOKING)) {
                allowedWrite(user, probe);
            }

            // the internet-facing service plants neither settings, stock, bookings nor the audit trail
            refusedWrite(INGEST, "queuegate.sale");
            refusedWrite(INGEST, "queuegate.bookings");
            refusedWrite(INGEST, "queuegate.audit");
            refusedWrite(INGEST, "queuegate.admissions");
            // the booking service neither places nor removes anyone
            refusedWrite(BOOKING, "queuegate.entries");
            refusedWrite(BOOKING, "queuegate.leaves");
            refusedWrite(BOOKING, "queuegate.audit");
            refusedWrite(BOOKING, "queuegate.admissions");
            // the worker books nothing and enters nobody
            refusedWrite(ADMISSION, "queuegate.bookings");
            refusedWrite(ADMISSION, "queuegate.entries");
            refusedRead(INGEST, "queuegate.sale");
            // a member of the line writer's group would be given partitions of the enters, and commit past them
            refusedGroup(INGEST, probe, "queuegate-waiting-writer");
            refusedGroup(BOOKING, probe, "queuegate-waiting-writer");
            // nobody without a sign-in, nobody with a wrong password
            refusedSignIn("no sign-in", Map.of());
            refusedSignIn("a wrong password", client(INGEST, password(INGEST) + "x"));
            refusedAtController(controller);

            // a topic made by a refused write's metadata request (a user who may create it but not write it) is
            // empty: its partitions count from 0
            Map<TopicPartition, Long> after = ends(admin, topics);
            boolean unmoved = after.entrySet().stream()
                .allMatch((end) -> end.getValue().equals(before.getOrDefault(end.getKey(), 0L)));
            record("the topics' ends did not move (" + after.size() + " partitions)", unmoved,
                    () -> "before " + before + ", after " + after);
            admin.deleteTopics(List.of(probe)).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        return summary();
    }

    private boolean summary() {
        System.out.println("kafka ACLs: " + (this.checks - this.failures.size()) + "/" + this.checks + " checks hold"
                + (this.failures.isEmpty() ? "" : "; failing: " + String.join(", ", this.failures)));
        return this.failures.isEmpty();
    }

    private void refusedWrite(String user, String topic) {
        Throwable failure = send(client(user, password(user)), topic);
        record(user + " may not write " + topic, failure instanceof TopicAuthorizationException,
                () -> outcome(failure));
    }

    private void allowedWrite(String user, String topic) {
        Throwable failure = send(client(user, password(user)), topic);
        record(user + " signs in and writes what it may (" + topic + ")", failure == null, () -> outcome(failure));
    }

    private void refusedSignIn(String who, Map<String, Object> config) {
        Map<String, Object> producer = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrap));
        producer.putAll(config);
        Throwable failure = send(producer, "queuegate.entries");
        // without a sign-in the broker drops the connection at the first request: no metadata ever arrives
        boolean refused = config.isEmpty() ? failure instanceof TimeoutException
                : failure instanceof SaslAuthenticationException;
        record("a client with " + who + " is refused", refused, () -> outcome(failure));
    }

    /** The controller's port takes admin requests too (KIP-919): nothing without the admin's sign-in. */
    private void refusedAtController(String controller) {
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG, controller,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, REFUSED_AFTER_MS,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, REFUSED_AFTER_MS);
        Throwable failure = null;
        try (Admin admin = Admin.create(config)) {
            admin.describeAcls(AclBindingFilter.ANY).values()
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        catch (ExecutionException ex) {
            failure = ex.getCause();
        }
        catch (Exception ex) {
            failure = ex;
        }
        Throwable seen = failure;
        record("a client with no sign-in gets nothing from the controller's port " + controller,
                seen instanceof TimeoutException, () -> outcome(seen));
    }

    private void refusedRead(String user, String topic) {
        Map<String, Object> config = consumer(user, null);
        Throwable failure = null;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(consumer.assignment());
            consumer.poll(Duration.ofSeconds(5));
        }
        catch (RuntimeException ex) {
            failure = ex;
        }
        Throwable seen = failure;
        record(user + " may not read " + topic, seen instanceof TopicAuthorizationException, () -> outcome(seen));
    }

    private void refusedGroup(String user, String topic, String group) {
        Throwable failure = null;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumer(user, group))) {
            consumer.subscribe(List.of(topic));
            consumer.poll(Duration.ofSeconds(5));
        }
        catch (RuntimeException ex) {
            failure = ex;
        }
        Throwable seen = failure;
        record(user + " may not join the consumer group " + group, seen instanceof GroupAuthorizationException,
                () -> outcome(seen));
    }

    /** Sends one record and waits for it: null when it was written, else why not. */
    private Throwable send(Map<String, Object> config, String topic) {
        Map<String, Object> producer = new HashMap<>(config);
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, REFUSED_AFTER_MS);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> client = new KafkaProducer<>(producer, new StringSerializer(),
                new StringSerializer())) {
            client.send(new ProducerRecord<>(topic, "acl-check", "{\"planted\":true}"))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            return null;
        }
        catch (ExecutionException ex) {
            return ex.getCause();
        }
        catch (Exception ex) {
            return ex;
        }
    }

    private Map<String, Object> consumer(String user, String group) {
        Map<String, Object> config = client(user, password(user));
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        return config;
    }

    /** The end offset of every partition of the topics that exist. */
    private static Map<TopicPartition, Long> ends(Admin admin, List<String> topics) throws Exception {
        Set<String> existing = admin.listTopics().names().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        List<String> present = topics.stream().filter(existing::contains).toList();
        Map<String, TopicDescription> described = admin.describeTopics(present).allTopicNames()
            .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
        described.values().forEach((topic) -> topic.partitions()
            .forEach((p) -> latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest())));
        return admin.listOffsets(latest).all().get(WAIT.toSeconds(), TimeUnit.SECONDS).entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, (e) -> e.getValue().offset()));
    }

    private void record(String label, boolean held, java.util.function.Supplier<String> detail) {
        this.checks++;
        System.out.println((held ? "PASS " : "FAIL ") + label + (held ? "" : " -- " + detail.get()));
        if (!held) {
            this.failures.add(label);
        }
    }

    private static String outcome(Throwable failure) {
        return failure == null ? "it succeeded" : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    private String password(String user) {
        try {
            return Files.readString(this.users.resolve(user + ".password")).strip();
        }
        catch (java.io.IOException ex) {
            throw new IllegalStateException("no password of " + user + " in " + this.users, ex);
        }
    }

    /** A client of the broker signed in as the user with SCRAM-SHA-512, as the services sign in. */
    private Map<String, Object> client(String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrap);
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.mechanism", "SCRAM-SHA-512");
        config.put("sasl.jaas.config", jaas(user, password));
        return config;
    }

    static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }
}
