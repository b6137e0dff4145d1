package io.queuegate.ingest.enter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.core.event.EntriesRequested.Entry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.serializer.JacksonJsonSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every enter is answered within the publish timeout of its own arrival, also when Kafka answers nothing and the
 * producer's send itself blocks far longer (here on metadata it never gets): the enters behind the round that
 * hangs do not wait for it first. The broker is a real socket that takes connections and never answers, as a broker
 * frozen with SIGSTOP does.
 */
class EnterDeadlineTests {

    private static final Duration PUBLISH_TIMEOUT = Duration.ofMillis(600);

    /** What an answer may take beyond the deadline: the sweeper's interval and a busy machine's scheduling. */
    private static final Duration SLACK = Duration.ofMillis(400);

    private ServerSocket silentBroker;

    private final List<Socket> held = new CopyOnWriteArrayList<>();

    private DefaultKafkaProducerFactory<String, Object> producers;

    private EnterGroupCommit commit;

    @BeforeEach
    void startSilentBroker() throws IOException {
        this.silentBroker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    this.held.add(this.silentBroker.accept());
                }
            }
            catch (IOException ex) {
                // closed after the test
            }
        });
        this.producers = new DefaultKafkaProducerFactory<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + this.silentBroker.getLocalPort(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, JacksonJsonSerializer.class,
                ProducerConfig.ACKS_CONFIG, "all",
                // the send waits this long for metadata the silent broker never gives: far past every deadline
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000,
                // bounds the producer's own requests, so that closing it after the test does not wait on them
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1000));
        this.producers.setPhysicalCloseTimeout(1);
        this.commit = new EnterGroupCommit(new KafkaTemplate<>(this.producers), "queuegate.entries", PUBLISH_TIMEOUT,
                1000, Duration.ZERO, 64, new SimpleMeterRegistry());
    }

    @AfterEach
    void stop() throws Exception {
        this.commit.close();
        this.producers.destroy();
        this.silentBroker.close();
        for (Socket socket : this.held) {
            socket.close();
        }
    }

    @Test
    void everyEnterIsAnsweredWithinThePublishTimeoutOfItsArrivalWhenKafkaAnswersNothing() {
        List<Long> submitted = new ArrayList<>();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        List<Long> answered = new CopyOnWriteArrayList<>(new Long[5]);
        for (int i = 0; i < 5; i++) {
            // the first goes out in a round of its own and hangs in the send; the others queue behind it
            submitted.add(System.nanoTime());
            int index = i;
            CompletableFuture<Void> answer = this.commit.submit(7, new Entry("token-" + i, "user-" + i, "req-" + i, 0));
            answer.whenComplete((ok, failure) -> answered.set(index, System.nanoTime()));
            answers.add(answer);
        }

        await().atMost(PUBLISH_TIMEOUT.plus(SLACK).multipliedBy(2))
            .until(() -> answers.stream().allMatch(CompletableFuture::isDone));
        for (int i = 0; i < 5; i++) {
            assertThat(answers.get(i)).as("enter %d", i).isCompletedExceptionally();
            assertThat(answers.get(i).exceptionNow()).as("enter %d", i).isInstanceOf(TimeoutException.class);
            assertThat(Duration.ofNanos(answered.get(i) - submitted.get(i))).as("enter %d", i)
                .isGreaterThanOrEqualTo(PUBLISH_TIMEOUT)
                .isLessThan(PUBLISH_TIMEOUT.plus(SLACK));
        }
    }
}
