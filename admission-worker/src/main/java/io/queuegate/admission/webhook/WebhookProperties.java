package io.queuegate.admission.webhook;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.queuegate.core.event.Topics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the shops' webhooks are told of admissions ({@link WebhookSender}).
 *
 * @param topic the topic each admission of a queue with a webhook is published to, one record per user, by the
 *        audit relay
 * @param deadLetterTopic where an admission goes, untouched, once its receiver refused it {@code retries} times
 *        more, with the last failure in its headers
 * @param group the consumer group of the senders
 * @param timeout how long a POST may take, from connecting to the last byte of the answer, before it is cut off and
 *        counts as failed
 * @param retries how many times more a refused or failed POST is made before its event is set aside
 * @param firstRetry the pause before the first retry; each next one waits twice as long, up to
 *        {@code maxRetryInterval}
 * @param maxRetryInterval the longest pause between two retries
 * @param concurrency consumers per worker: a receiver that is slow or failing holds up the events behind it in its
 *        partition (its own product's and others'), while the other consumers go on
 */
@Validated
@ConfigurationProperties("queuegate.admission.webhook")
public record WebhookProperties(
        @DefaultValue("queuegate.admissions") @Pattern(regexp = Topics.LEGAL_NAME) String topic,
        @DefaultValue("queuegate.admissions.DLT") @Pattern(regexp = Topics.LEGAL_NAME) String deadLetterTopic,
        @DefaultValue("queuegate-webhooks") @NotBlank String group,
        @DefaultValue("5s") @NotNull Duration timeout,
        @DefaultValue("4") @Min(0) @Max(20) int retries,
        @DefaultValue("1s") @NotNull Duration firstRetry,
        @DefaultValue("30s") @NotNull Duration maxRetryInterval,
        @DefaultValue("4") @Min(1) @Max(64) int concurrency) {
}
