package io.queuegate.admission;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.queuegate.core.queue.QueueKeys;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis that keeps its lines' id but loses its last writes, as one with AOF everysec killed or a replica promoted
 * a moment behind does: here a private {@code redis-server} is snapshotted ({@code SAVE}), takes more enters and a
 * booking, and is killed with SIGKILL and started again from that snapshot. Its id is the same, its process is not:
 * the writer notices, restores the sale from the log onto the older state (the lost booking takes its units off the
 * stock, its user is gone again; a booking the gate undid books nothing) and reads the log again, so the enters Redis
 * lost are placed, in log order, before anyone who entered after the restart. Without the check the writer would
 * append the later enters behind a gap and the lost ones would read PENDING for good.
 */
class LastWritesLostTests extends OwnRedisWorkerTestSupport {

    private Path directory;

    private int port;

    private Process server;

    @BeforeEach
    void startRedisAndWorker() throws IOException {
        this.directory = Files.createTempDirectory("queuegate-last-writes-");
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        }
        this.server = startServer();
        startWorker("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + this.port);
    }

    @Override
    void stopRedis() throws InterruptedException {
        if (this.server != null) {
            this.server.destroyForcibly().waitFor();
        }
    }

    @Test
    void entersAndABookingARestartedRedisLostComeBackFromTheLogInLogOrder() throws Exception {
        long product = newProduct();
        QueueKeys keys = QueueKeys.of(product);
        this.lines.opsForValue().set(keys.stock(), "10");
        this.lines.opsForHash().putAll(keys.stats(), Map.of("bookedUnits", "0", "stockSetting", "10:0"));
        List<String> users = enter(product, "kept", 300);
        await().atMost(RESTORED).until(() -> waiting(product).size() == 300);
        String epoch = this.lines.opsForValue().get(QueueKeys.LINE_EPOCH);
        this.lines.execute((RedisCallback<Object>) connection -> {
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
        this.lines.opsForZSet().remove(keys.waiting(), booked);
        this.lines.opsForSet().add(keys.gone(), booked);
        this.lines.opsForHash().put(keys.bookings(), product + "-b1", booking);
        this.lines.opsForHash().increment(keys.stats(), "bookedUnits", 3);
        this.lines.opsForValue().decrement(keys.stock(), 3);
        // and the second user's booking of 2 was stored by the producer's retries after its publish timed out: the
        // gate undid it (in Redis it nets to nothing) and its RESTORED change names it in the audit trail
        String undone = JsonMapper.shared().writeValueAsString(Map.of("bookingId", product + "-b2", "productId",
                product, "userId", users.get(1), "quantity", 2, "bookedAt", 2L));
        this.producer.send(new ProducerRecord<>("queuegate.bookings", Long.toString(product), undone)).get();
        String restored = JsonMapper.shared().writeValueAsString(Map.of("eventId", "1-0", "productId", product,
                "type", "RESTORED", "tokens", List.of(), "at", 3L, "bookingId", product + "-b2"));
        this.producer.send(new ProducerRecord<>("queuegate.audit", Long.toString(product), restored)).get();

        this.server.destroyForcibly().waitFor();
        this.server = startServer();
        // the older state: the lines' id kept, the last enters and the booking lost
        await().atMost(RESTORED).ignoreExceptions()
            .until(() -> epoch.equals(this.lines.opsForValue().get(QueueKeys.LINE_EPOCH)));

        // one enter after the restart: it must stand behind everyone Redis lost, not take their place
        users.addAll(enter(product, "after", 1));
        users.remove(booked);

        await().atMost(RESTORED).ignoreExceptions().until(() -> waiting(product).size() == 500);
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(this.lines.opsForZSet().score(keys.waiting(), users.getLast())).isEqualTo(501.0);
        assertThat(this.lines.opsForSet().isMember(keys.gone(), booked)).isTrue();
        assertThat(this.lines.opsForHash().get(keys.bookings(), product + "-b1")).isEqualTo(booking);
        assertThat(this.lines.opsForHash().hasKey(keys.bookings(), product + "-b2")).as("the undone booking").isFalse();
        assertThat(this.lines.opsForValue().get(keys.stock())).isEqualTo("7");
        assertThat(this.lines.opsForHash().get(keys.stats(), "bookedUnits")).isEqualTo("3");
        assertThat(this.lines.opsForValue().get(QueueKeys.LINE_EPOCH)).isEqualTo(epoch);
    }

    /** A redis-server of this test's own, snapshotting only when told, started on the snapshot it has. */
    private Process startServer() throws IOException {
        Path log = this.directory.resolve("redis.log");
        Files.deleteIfExists(log);
        Process started = new ProcessBuilder("redis-server", "--port", Integer.toString(this.port), "--bind",
                "127.0.0.1", "--dir", this.directory.toString(), "--save", "", "--appendonly", "no", "--logfile",
                log.toString())
            .start();
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
            .until(() -> Files.readString(log).contains("Ready to accept connections"));
        return started;
    }
}
