package io.queuegate.web.ops;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.ProducerListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * A send Kafka does not take, by Spring Boot's template in a service's settings: it is logged, with its topic, and
 * nothing of the record is. The broker is an address nobody listens on, so the send fails once the producer has
 * waited {@code max.block.ms} for the topic's metadata.
 */
@ExtendWith(OutputCaptureExtension.class)
class SendFailureLogTests {

    /** What an enter event holds: a place's token, a bearer secret. */
    private static final String TOKEN = "AQ3Ffm-sendFailureLogTests-c2VjcmV0LXRva2Vu";

    private final ApplicationContextRunner service = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class))
        .withUserConfiguration(SendFailureLogConfiguration.class)
        .withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1",
                "spring.kafka.producer.properties.max.block.ms=300");

    @Test
    void bootsTemplateTakesThisListenerInsteadOfItsOwn() {
        this.service.run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(ProducerListener.class)).hasSize(1)
                .allSatisfy((name, listener) -> assertThat(listener).isInstanceOf(SendFailureLog.class));
        });
    }

    @Test
    void aFailedSendIsLoggedWithItsTopicAndWithoutItsRecord(CapturedOutput output) {
        this.service.run((context) -> {
            @SuppressWarnings("unchecked")
            KafkaTemplate<String, String> template = context.getBean(KafkaTemplate.class);
            String event = "{\"productId\":7,\"entries\":[{\"token\":\"" + TOKEN + "\",\"userId\":\"ann\"}]}";

            assertThatException()
                .isThrownBy(() -> template.send("queuegate.entries", "7", event).get(10, TimeUnit.SECONDS));

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output.getOut())
                .contains("Kafka did not take a record for topic queuegate.entries"));
            assertThat(output.getAll()).doesNotContain(TOKEN);
        });
    }
}
