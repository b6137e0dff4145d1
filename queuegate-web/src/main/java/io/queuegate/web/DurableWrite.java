package io.queuegate.web;

import java.time.Duration;

/**
 * A write a client or an operator is told was accepted only once Kafka holds it: the record is sent and the broker's
 * acknowledgement (acks=all) awaited within a timeout ({@link DurableTopic}). A write that gets none is answered 503
 * with Retry-After, and the caller writes again.
 */
public final class DurableWrite {

    /** Retry-After of an operator's setting that did not reach Kafka: set again by hand, a second is plenty. */
    public static final Duration OPERATOR_RETRY_AFTER = Duration.ofSeconds(1);

    private DurableWrite() {
    }

    /** A write that may fail with any exception, which means it was not acknowledged. */
    @FunctionalInterface
    public interface Write {

        void run() throws Exception;
    }

    /**
     * Runs the write.
     *
     * @throws ApiException 503 {@code unavailable} with {@code detail} and {@code retryAfter} when it failed
     */
    public static void orUnavailable(Write write, String detail, Duration retryAfter) {
        try {
            write.run();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable(detail, retryAfter);
        }
        catch (Exception ex) {
            throw ApiException.unavailable(detail, retryAfter);
        }
    }
}
