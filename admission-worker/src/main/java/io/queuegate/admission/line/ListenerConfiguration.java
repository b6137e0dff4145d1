package io.queuegate.admission.line;

import io.queuegate.admission.restore.SaleRestore;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ContainerCustomizer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
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

    /** The writer commits each offset with the id of the Redis it was applied to, and checks it on assignment. */
    @Bean
    ContainerCustomizer<Object, Object, ConcurrentMessageListenerContainer<Object, Object>> lineRebuildOnAssignment(
            LineEpoch epoch, SaleRestore sale) {
        LineRebuild rebuild = new LineRebuild(epoch, sale);
        return (container) -> {
            if (LineWriter.LISTENER_ID.equals(container.getListenerId())) {
                container.getContainerProperties().setConsumerRebalanceListener(rebuild);
                container.getContainerProperties().setOffsetAndMetadataProvider(rebuild);
            }
        };
    }
}
