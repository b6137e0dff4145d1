package io.queuegate.admission.line;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

@Configuration(proxyBeanMethods = false)
class ListenerConfiguration {

    /**
     * Retries a failed batch for as long as it takes, backing off up to 5 s. The only failure left once events
     * are parsed is Redis not answering, and skipping a batch would lose people's places.
     */
    @Bean
    DefaultErrorHandler waitingWriterErrorHandler() {
        ExponentialBackOff backOff = new ExponentialBackOff(100, 2);
        backOff.setMaxInterval(5_000);
        return new DefaultErrorHandler(backOff);
    }
}
