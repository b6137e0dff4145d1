package io.queuegate.admission.line;

import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Restarts the writer's listener container, so that its partitions are assigned again and {@link LineRebuild}
 * decides afresh where to read them from. From another thread: a container cannot be stopped from its own.
 */
@Component
class WriterRestart {

    private static final Logger log = LoggerFactory.getLogger(WriterRestart.class);

    private final ObjectProvider<KafkaListenerEndpointRegistry> registry;

    private final AtomicBoolean restarting = new AtomicBoolean();

    WriterRestart(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
        this.registry = registry;
    }

    /** Asks for one restart; asking again while it is under way changes nothing. */
    void request() {
        if (!this.restarting.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("waiting-writer-restart").start(() -> {
            try {
                MessageListenerContainer writer = this.registry.getObject()
                    .getListenerContainer(LineWriter.LISTENER_ID);
                if (writer != null && writer.isRunning()) {
                    writer.stop();
                    writer.start();
                }
            }
            catch (RuntimeException ex) {
                log.error("could not restart the waiting writer", ex);
            }
            finally {
                this.restarting.set(false);
            }
        });
    }
}
