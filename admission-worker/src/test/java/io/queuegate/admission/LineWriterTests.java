package io.queuegate.admission;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Enter events from the log become the products' lines, in log order, once each; what is not genuine is set aside
 * on the dead-letter topic.
 */
class LineWriterTests extends WorkerTestSupport {

    private static final Duration APPLIED = Duration.ofSeconds(30);

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    private final List<Future<RecordMetadata>> sent = new ArrayList<>();

    private KafkaProducer<String, String> producer;

    @BeforeEach
    void openProducer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void closeProducer() {
        this.producer.close(Duration.ofSeconds(5));
    }

    @Test
    void oneProductsEventsEnterTheLineInLogOrder() throws Exception {
        long product = newProduct();
        List<String> tokens = issue(product, "u", 1_000);

        enterAllAndAwaitTheLine(product, tokens);

        List<String> users = users(tokens);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        Map<String, Double> scores = waitingScores(product);
        for (int i = 0; i < users.size(); i++) {
            assertThat(scores.get(users.get(i))).as("score of #%d", i).isEqualTo(i + 1.0);
        }
        assertThat(stat(product, "enteredTotal")).isEqualTo(1_000);
        // the line holds users, not tokens, and nothing else per waiting user
        assertThat(waiting(product)).allMatch(member -> member.startsWith("u-"));
        assertThat(this.redis.hasKey(QueueKeys.of(product).gone())).isFalse();
        assertThat(this.redis.hasKey(QueueKeys.of(product).audit())).isFalse();
    }

    @Test
    void aBurstVerifiedInParallelChunksEntersInLogOrder() throws Exception {
        // 20,000 at once: polls of up to 10,000 events, each cut into chunks that are parsed and verified
        // concurrently and sent to Redis before the earlier ones are answered
        long product = newProduct();
        List<String> tokens = issue(product, "b", 20_000);

        enterAllAndAwaitTheLine(product, tokens);

        assertThat(waiting(product)).containsExactlyElementsOf(users(tokens));
        assertThat(waitingScores(product).get(users(tokens).getLast())).isEqualTo(20_000.0);
        assertThat(stat(product, "enteredTotal")).isEqualTo(20_000);
    }

    @Test
    void anEventWithFieldsThisWorkerDoesNotKnowIsStillApplied() throws Exception {
        long product = newProduct();
        String token = this.codec.issue(product, "newer-producer").value();

        send(product, "{\"productId\": " + product + ", \"token\": \"" + token + "\", \"userId\": \"u\", "
                + "\"requestId\": \"r\", \"requestedAt\": 1, \"channel\": \"app\"}");
        flush();

        await().atMost(APPLIED).until(() -> this.redis.opsForZSet().score(QueueKeys.of(product).waiting(),
                "newer-producer") != null);
        assertThat(waiting(product)).containsExactly("newer-producer");
    }

    @Test
    void interleavedProductsEachKeepTheirOwnOrder() throws Exception {
        long[] products = { newProduct(), newProduct(), newProduct() };
        Map<Long, List<String>> tokens = new LinkedHashMap<>();
        for (long product : products) {
            tokens.put(product, issue(product, "i", 300));
        }

        for (int i = 0; i < 300; i++) {
            for (long product : products) {
                send(product, event(product, tokens.get(product).get(i)));
            }
        }
        flush();

        for (long product : products) {
            await().atMost(APPLIED)
                .until(() -> this.redis.opsForZSet().zCard(QueueKeys.of(product).waiting()) >= 300);
            assertThat(waiting(product)).as("line of %d", product)
                .containsExactlyElementsOf(users(tokens.get(product)));
        }
    }

    @Test
    void aRedeliveredBatchChangesNobodysPlace() throws Exception {
        long product = newProduct();
        List<String> tokens = issue(product, "r", 1_000);
        enterAllAndAwaitTheLine(product, tokens);
        Map<String, Double> scoresBefore = waitingScores(product);
        assertThat(scoresBefore).hasSize(1_000);

        // the same events again, then one new event behind them in the same partition
        tokens.forEach((token) -> send(product, event(product, token)));
        String sentinel = this.codec.issue(product, "sentinel").value();
        send(product, event(product, sentinel));
        flush();
        await().atMost(APPLIED).until(() -> this.redis.opsForZSet().score(QueueKeys.of(product).waiting(),
                "sentinel") != null);

        Map<String, Double> scoresAfter = waitingScores(product);
        assertThat(scoresAfter).hasSize(1_001).containsEntry("sentinel", 1_001.0);
        scoresAfter.remove("sentinel");
        assertThat(scoresAfter).containsExactlyEntriesOf(scoresBefore);
        assertThat(stat(product, "enteredTotal")).isEqualTo(1_001);
        assertThat(stat(product, "seq")).isEqualTo(1_001);
    }

    @Test
    void forgedAndUnreadableEventsAreSetAsideAndTheLineGoesOn() throws Exception {
        long product = newProduct();
        long other = newProduct();
        String first = this.codec.issue(product, "first").value();
        String forged = new TokenCodec("not-this-deployments-secret-0123").issue(product, "forger").value();
        String foreign = this.codec.issue(other, "foreigner").value();
        String last = this.codec.issue(product, "last").value();

        send(product, event(product, first));
        Map<String, String> setAside = new LinkedHashMap<>();
        setAside.put(event(product, forged), "forged");
        setAside.put(event(product, foreign), "forged");
        setAside.put("{\"productId\": " + product + ", \"token\": ", "unreadable");
        setAside.put("not json at all", "unreadable");
        setAside.put("{}", "unreadable");
        setAside.put("[1,2,3]", "unreadable");
        setAside.put(event(product, "garbage-token"), "forged");
        List<Future<RecordMetadata>> originals = new ArrayList<>();
        setAside.keySet().forEach((value) -> originals.add(send(product, value)));
        send(product, event(product, last));
        flush();

        await().atMost(APPLIED).until(() -> this.redis.opsForZSet().score(QueueKeys.of(product).waiting(),
                "last") != null);
        assertThat(waitingScores(product)).containsExactly(Map.entry("first", 1.0), Map.entry("last", 2.0));
        assertThat(this.redis.countExistingKeys(QueueKeys.of(other).all())).isZero();

        // each one is on the dead-letter topic, untouched, in log order, saying where it came from and why
        List<ConsumerRecord<String, byte[]>> letters = deadLettersOf(product, setAside.size());
        assertThat(letters).extracting(letter -> new String(letter.value(), StandardCharsets.UTF_8))
            .containsExactlyElementsOf(setAside.keySet());
        assertThat(letters).extracting(letter -> header(letter, "queuegate-dlt-reason"))
            .containsExactlyElementsOf(setAside.values());
        assertThat(letters).extracting(letter -> header(letter, "kafka_dlt-original-topic")).containsOnly(ENTRIES_TOPIC);
        List<Long> offsets = new ArrayList<>();
        for (Future<RecordMetadata> original : originals) {
            offsets.add(original.get().offset());
        }
        assertThat(letters).extracting(letter -> ByteBuffer.wrap(letter.headers()
            .lastHeader("kafka_dlt-original-offset").value()).getLong()).containsExactlyElementsOf(offsets);
        assertThat(header(letters.getFirst(), "kafka_dlt-exception-message"))
            .isEqualTo("1 of 1 enters carry a token this deployment did not issue for their product");
        assertThat(letters.getFirst().headers().lastHeader("kafka_dlt-exception-stacktrace")).isNull();

        // and the listener still takes new events afterwards
        String later = this.codec.issue(product, "later").value();
        send(product, event(product, later));
        flush();
        await().atMost(APPLIED).until(() -> this.redis.opsForZSet().score(QueueKeys.of(product).waiting(),
                "later") != null);
        assertThat(waiting(product)).containsExactly("first", "last", "later");
    }

    /** The dead letters keyed by the product, from the start of the topic, once there are as many as expected. */
    private List<ConsumerRecord<String, byte[]>> deadLettersOf(long product, int expected) {
        List<ConsumerRecord<String, byte[]>> letters = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ConsumerConfig.GROUP_ID_CONFIG, "dlt-check-" + product,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(ENTRIES_TOPIC + ".DLT"));
            await().atMost(APPLIED).until(() -> {
                for (ConsumerRecord<String, byte[]> letter : consumer.poll(Duration.ofMillis(200))) {
                    if (letter.key().equals(Long.toString(product))) {
                        letters.add(letter);
                    }
                }
                return letters.size() >= expected;
            });
        }
        return letters;
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private List<String> issue(long product, String prefix, int count) {
        List<String> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(this.codec.issue(product, "%s-%05d".formatted(prefix, i)).value());
        }
        return tokens;
    }

    /** The users the tokens name, which is what the line holds. */
    private List<String> users(List<String> tokens) {
        return tokens.stream().map(token -> this.codec.verify(token).orElseThrow().userId()).toList();
    }

    private static String event(long product, String token) {
        return JsonMapper.shared().writeValueAsString(new EntryRequested(product, token, "user", "req-1",
                System.currentTimeMillis()));
    }

    /** Sends one enter event per token, in order, and waits until the line holds as many. */
    private void enterAllAndAwaitTheLine(long product, List<String> tokens) throws Exception {
        tokens.forEach((token) -> send(product, event(product, token)));
        flush();
        await().atMost(APPLIED)
            .until(() -> this.redis.opsForZSet().zCard(QueueKeys.of(product).waiting()) >= tokens.size());
    }

    private Future<RecordMetadata> send(long product, String json) {
        Future<RecordMetadata> sending = this.producer.send(new ProducerRecord<>(ENTRIES_TOPIC, Long.toString(product),
                json));
        this.sent.add(sending);
        return sending;
    }

    /** Waits until the broker acknowledged everything sent so far. */
    private void flush() throws Exception {
        this.producer.flush();
        for (Future<RecordMetadata> future : this.sent) {
            future.get(10, TimeUnit.SECONDS);
        }
        this.sent.clear();
    }
}
