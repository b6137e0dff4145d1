package io.queuegate.core.event;

import java.util.List;

import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TopicsTests {

    private static final ValidatorFactory validation = Validation.buildDefaultValidatorFactory();

    private final Validator validator = validation.getValidator();

    record TopicSetting(@Pattern(regexp = Topics.LEGAL_NAME) String topic) {
    }

    @AfterAll
    static void close() {
        validation.close();
    }

    @Test
    void everyDefaultTopicIsALegalName() {
        assertThat(List.of(Topics.ENTRIES, Topics.BOOKINGS, Topics.LEAVES, Topics.AUDIT, Topics.ADMISSIONS,
                Topics.SALE, Topics.STOCK, "queuegate.entries.DLT", "a", "A_b-9.x", "x".repeat(249)))
            .allSatisfy((name) -> assertThat(this.validator.validate(new TopicSetting(name))).isEmpty());
    }

    @Test
    void namesKafkaWouldRefuseAreRefused() {
        assertThat(List.of("", ".", "..", "queue gate", "queuegate/entries", "quéue", "x".repeat(250)))
            .allSatisfy((name) -> assertThat(this.validator.validate(new TopicSetting(name))).hasSize(1));
    }
}
