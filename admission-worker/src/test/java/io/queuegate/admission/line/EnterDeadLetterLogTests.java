package io.queuegate.admission.line;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.admission.AdmissionProperties;
import io.queuegate.admission.line.EnterDeadLetters.Reason;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * A dead letter Kafka does not take: the set-aside fails (the batch is tried again), the failure is logged with the
 * dead-letter topic, and nothing of the record's bytes, which hold the enters' tokens. The broker is an address
 * nobody listens on.
 */
@ExtendWith(OutputCaptureExtension.class)
class EnterDeadLetterLogTests {

    private static final String TOKEN = "AQ3Ffm-enterDeadLetterLogTests-c2VjcmV0";

    @Test
    void aDeadLetterKafkaDoesNotTakeIsLoggedWithoutItsBytes(CapturedOutput output) {
        KafkaProperties kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of("127.0.0.1:1"));
        kafka.getProducer().getProperties().put("max.block.ms", "300");
        AdmissionProperties admission = new Binder(new MapConfigurationPropertySource())
            .bindOrCreate("queuegate.admission", AdmissionProperties.class);
        EnterDeadLetters deadLetters = new EnterDeadLetters(kafka, admission, new SimpleMeterRegistry());
        byte[] value = ("{\"version\":2,\"productId\":7,\"entries\":[{\"token\":\"" + TOKEN + "\"}]}")
            .getBytes(StandardCharsets.UTF_8);
        try {
            assertThatException().isThrownBy(() -> deadLetters.setAside(
                    new ConsumerRecord<>(admission.topic(), 3, 42L, "7", value), Reason.FORGED,
                    "1 of 1 enters carry a token this deployment did not issue for their product"));

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut())
                .contains("Kafka did not take a record for topic " + admission.deadLetterTopic()));
            assertThat(output.getAll()).contains("set aside forged enter record at queuegate.entries-3@42")
                .doesNotContain(TOKEN);
        }
        finally {
            deadLetters.destroy();
        }
    }
}
