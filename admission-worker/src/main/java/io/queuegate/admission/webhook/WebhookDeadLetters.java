package io.queuegate.admission.webhook;

import java.time.Duration;

import io.queuegate.web.egress.RefusedAddressException;
import io.queuegate.web.egress.RefusedUrlException;
import io.queuegate.web.ops.SendFailureLog;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import tools.jackson.core.JacksonException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer.HeaderNames.HeadersToAdd;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.stereotype.Component;

/**
 * The sender's error handler. A refused or failed POST is made again {@code retries} times, backing off from
 * {@code first-retry} and doubling: a receiver that restarts or sheds load gets its events a little later, and one
 * that is down for longer does not hold its partition for more than a minute or so per event. Then the record goes,
 * as it was, to the dead-letter topic ({@code queuegate.admissions.DLT}) with spring-kafka's headers naming where it
 * came from and why ({@code kafka_dlt-original-*}, {@code kafka_dlt-exception-message}), and only then is its offset
 * committed; an operator can replay it once the receiver is fixed. A dead letter that Kafka does not take fails too,
 * and the record is tried again from the start.
 *
 * <p>It has its own producer: the application's template writes JSON, and a dead letter keeps the record's bytes.
 * Not a producer factory bean, which would replace the application's.
 */
@Component
class WebhookDeadLetters implements DisposableBean {

    private final DefaultKafkaProducerFactory<String, byte[]> producers;

    private final DefaultErrorHandler errorHandler;

    WebhookDeadLetters(KafkaProperties kafka, WebhookProperties webhook) {
        this.producers = new DefaultKafkaProducerFactory<>(kafka.buildProducerProperties(),
                new StringSerializer(), new ByteArraySerializer());
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(this.producers);
        // a dead letter that Kafka does not take is logged without its bytes, which hold the admission's token
        template.setProducerListener(new SendFailureLog<>());
        // partition -1: the key (the product) picks it, so one product's dead letters stay in order
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(template,
                (record, ex) -> new TopicPartition(webhook.deadLetterTopic(), -1));
        recoverer.excludeHeader(HeadersToAdd.EX_STACKTRACE);
        recoverer.setWaitForSendResultTimeout(Duration.ofSeconds(10));
        ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(webhook.retries());
        backOff.setInitialInterval(webhook.firstRetry().toMillis());
        backOff.setMultiplier(2);
        backOff.setMaxInterval(webhook.maxRetryInterval().toMillis());
        // a record that is not an admission, or whose URL or address queuegate.egress.* refuses, fails the same way
        // every time: set aside at once
        this.errorHandler = new DefaultErrorHandler(recoverer, backOff);
        this.errorHandler.addNotRetryableExceptions(JacksonException.class, RefusedUrlException.class,
                RefusedAddressException.class);
    }

    DefaultErrorHandler errorHandler() {
        return this.errorHandler;
    }

    @Override
    public void destroy() {
        this.producers.destroy();
    }
}
