package io.queuegate.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that keeps its lines' id but loses its last writes, as one with AOF everysec killed or a replica promoted
 * a moment behind does: here a private {@code redis-server} is snapshotted ({@code SAVE}), takes more enters and a
 * booking, and is killed with SIGKILL and started again from that snapshot. Its id is the same, its process is not:
 * the writer notices, restores the sale from the log onto the older state (the lost booking takes its units off the
 * stock, its user is gone again) and reads the log again, so the enters Redis lost are placed, in log order, before
 * anyone who entered after the restart. Without the check the writer would append the later enters behind a gap
 * and the lost ones would read PENDING for good.
 */
class LastWritesLostTests extends WorkerTestSupport {

    private static final Duration RESTORED = Duration.ofSeconds(60);

    private static final Path DIRECTORY = temporaryDirectory();

    private static final int PORT = freePort();

    /** Started once the class is initialized (Awaitility's waiting thread could not run code of it before). */
    private static Process server;

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    private KafkaProducer<String, String> producer;

    @DynamicPropertySource
    static void privateRedis(DynamicPropertyRegistry properties) {
        if (server == null) {
            server = start();
        }
        properties.add("spring.data.redis.host", () -> "127.0.0.1");
        properties.add("spring.data.redis.port", () -> PORT);
    }

    @BeforeEach
    void openProducer() {
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void closeProducer() {
        this.producer.close(Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.destroyForcibly();
        }
    }

    @Test
    void enterAndBookingsARestartedRedisLostComeBackFromTheLogInLogOrder() throws Exception {
        long product = newProduct();
        QueueKeys keys = QueueKeys.of(product);
        this.redis.opsForValue().set(keys.stock(), "10");
        this.redis.opsForHash().putAll(keys.stats(), Map.of("bookedUnits", "0", "stockSetting", "10:0"));
        List<String> users = enter(product, "kept", 300);
        await().atMost(RESTORED).until(() -> waiting(product).size() == 300);
        String epoch = this.redis.opsForValue().get(QueueKeys.LINE_EPOCH);
        this.redis.execute((RedisCallback<Object>) connection -> {
            connection.serverCommands().save();
            return null;
        });

        // after the snapshot: 200 more enters, and the first user books 3 units (in Redis, as the gate would, and on
        // the bookings topic before it is answered)
        users.addAll(enter(product, "lost", 200));
        await().atMost(RESTORED).until(() -> waiting(product).size() == 500);
        String booked = users.getFirst();
        String booking = JsonMapper.shared().writeValueAsString(Map.of("bookingId", product + "-b1", "productId",
                product, "userId", booked, "quantity", 3, "bookedAt", 1L));
        this.producer.send(new ProducerRecord<>("queuegate.bookings", Long.toString(product), booking)).get();
        this.redis.opsForZSet().remove(keys.waiting(), booked);
        this.redis.opsForSet().add(keys.gone(), booked);
        this.redis.opsForHash().put(keys.bookings(), product + "-b1", booking);
        this.redis.opsForHash().increment(keys.stats(), "bookedUnits", 3);
        this.redis.opsForValue().decrement(keys.stock(), 3);

        server.destroyForcibly().waitFor();
        server = start();
        // the older state: the lines' id kept, the last enters and the booking lost
        await().atMost(RESTORED).ignoreExceptions()
            .until(() -> epoch.equals(this.redis.opsForValue().get(QueueKeys.LINE_EPOCH)));

        // one enter after the restart: it must stand behind everyone Redis lost, not take their place
        users.addAll(enter(product, "after", 1));
        users.remove(booked);

        await().atMost(RESTORED).ignoreExceptions().until(() -> waiting(product).size() == 500);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(waitingScores(product).get(users.getLast())).isEqualTo(501.0);
        assertThat(this.redis.opsForSet().isMember(keys.gone(), booked)).isTrue();
        assertThat(this.redis.opsForHash().get(keys.bookings(), product + "-b1")).isEqualTo(booking);
        assertThat(this.redis.opsForValue().get(keys.stock())).isEqualTo("7");
        assertThat(stat(product, "bookedUnits")).isEqualTo(3);
        assertThat(this.redis.opsForValue().get(QueueKeys.LINE_EPOCH)).isEqualTo(epoch);
    }

    /** Sends one enter event per user, waits for the broker's acknowledgements, returns the users in order. */
    private List<String> enter(long product, String prefix, int count) {
        List<String> users = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String user = "%s-%05d".formatted(prefix, i);
            users.add(user);
            String token = this.codec.issue(product, user).value();
            this.producer.send(new ProducerRecord<>(ENTRIES_TOPIC, Long.toString(product), JsonMapper.shared()
                .writeValueAsString(new EntryRequested(product, token, user, "r-" + i, 1L))));
        }
        this.producer.flush();
        return users;
    }

    /** A redis-server of this test's own, snapshotting only when told, started on the snapshot it has. */
    private static Process start() {
        try {
            Process started = new ProcessBuilder("redis-server", "--port", Integer.toString(PORT), "--bind",
                    "127.0.0.1", "--dir", DIRECTORY.toString(), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true)
                .redirectOutput(DIRECTORY.resolve("redis.log").toFile())
                .start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
                try (var socket = new java.net.Socket("127.0.0.1", PORT)) {
                    return Files.readString(DIRECTORY.resolve("redis.log")).contains("Ready to accept connections");
                }
            });
            return started;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("could not start redis-server (is it on the PATH?)", ex);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("queuegate-last-writes-");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
