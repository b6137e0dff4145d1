package io.queuegate.admission.line;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Holds this worker's line writer and releases it.
 *
 * <p>While the writer is held it reads nothing more from the log. Ingest still takes enters and the log keeps every
 * one of them; the lines stop growing until the release, and then the writer drains the backlog in log order. This
 * is for work on Redis that should see no appends (a planned failover, a resize), and for timing a backlog drain.
 * The writer keeps its partitions while held, so no other worker takes them over. A hold covers only this worker:
 * with several workers, hold each one. A restart of the worker releases it.
 */
@Component
public class WriterHold {

    private final ObjectProvider<KafkaListenerEndpointRegistry> registry;

    WriterHold(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
        this.registry = registry;
    }

    public WriterState state() {
        return WriterState.of(writer());
    }

    /** Holds the writer, or releases it. A batch under way is finished first: the state says when it stopped. */
    public WriterState hold(boolean held) {
        MessageListenerContainer writer = writer();
        if (held) {
            writer.pause();
        }
        else {
            writer.resume();
        }
        return WriterState.of(writer);
    }

    private MessageListenerContainer writer() {
        MessageListenerContainer writer = this.registry.getObject()
            .getListenerContainer(LineWriter.LISTENER_ID);
        if (writer == null) {
            throw new IllegalStateException("the waiting writer's listener container is not registered");
        }
        return writer;
    }

    /**
     * @param held whether a hold was asked for and not released since
     * @param paused whether the writer has stopped reading (it finishes a batch under way first)
     * @param running whether the writer runs at all
     */
    public record WriterState(boolean held, boolean paused, boolean running) {

        static WriterState of(MessageListenerContainer writer) {
            return new WriterState(writer.isPauseRequested(), writer.isContainerPaused(), writer.isRunning());
        }
    }
}
