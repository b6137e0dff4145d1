package io.queuegate.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;


import io.queuegate.core.event.EntryRequested;
import io.queuegate.core.queue.QueueKeys;
import io.queuegate.core.token.TokenCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A chunk in the middle of a batch never reaches Redis, as if its connection dropped it, while the chunks behind it
 * are sent. The line refuses those (their predecessor is not in), the batch fails and is delivered again, and the
 * line ends up in log order: nobody behind the lost chunk got ahead of it, and nobody was added twice.
 *
 * <p>The writer is paused while the burst is produced, so that its first batch holds many chunks: a batch cut
 * short right behind the lost chunk would leave nothing to refuse.
 */
class AMiddleChunkLostTests extends WorkerTestSupport {

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    TokenCodec codec;

    @Autowired
    LosingLine line;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Test
    void chunksBehindALostChunkAreRefusedAndTheRetryKeepsLogOrder() throws Exception {
        long product = newProduct();
        this.line.loseOneChunkOf(product);
        MessageListenerContainer writer = this.listeners.getListenerContainer("waiting-writer");
        writer.pause();
        await().atMost(Duration.ofSeconds(30)).until(writer::isContainerPaused);
        List<String> users = new ArrayList<>();
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 5_000; i++) {
                String user = "lost-%05d".formatted(i);
                users.add(user);
                String token = this.codec.issue(product, user).value();
                producer.send(new ProducerRecord<>(ENTRIES_TOPIC, Long.toString(product), JsonMapper.shared()
                    .writeValueAsString(new EntryRequested(product, token, user, "r-" + i, 1L))));
            }
            producer.flush();
        }
        finally {
            writer.resume();
        }

        await().atMost(Duration.ofSeconds(60))
            .until(() -> this.redis.opsForZSet().zCard(QueueKeys.of(product).waiting()) >= users.size());

        assertThat(this.line.lost).as("a chunk was lost").isTrue();
        assertThat(this.line.refused).as("chunks sent behind the lost one").isNotEmpty();
        assertThat(waiting(product)).containsExactlyElementsOf(users);
        assertThat(waitingScores(product).get(users.getLast())).isEqualTo(5_000.0);
        assertThat(stat(product, "enteredTotal")).isEqualTo(5_000);
        assertThat(stat(product, "seq")).isEqualTo(5_000);
    }
}
