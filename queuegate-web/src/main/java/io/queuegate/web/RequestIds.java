package io.queuegate.web;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Every request's id: the caller's {@code X-Request-Id} when it is sane, a new one otherwise. Echoed in the answer and
 * carried in the enter event, so that one enter can be followed from HTTP through Kafka to the worker that writes it
 * into the line. Free of either HTTP stack's types: the servlet filter and the reactive one both use it.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";

    /** Where a request's id is kept: the logging context's key, and the exchange attribute on the reactive stack. */
    public static final String KEY = "requestId";

    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    private RequestIds() {
    }

    /** The id of a request that presented this {@code X-Request-Id} (or none): it when it is sane, else a new one. */
    public static String idFor(String presented) {
        return presented != null && SANE.matcher(presented).matches() ? presented : newId();
    }

    /**
     * A random id in UUID form. Not {@link UUID#randomUUID()}: a request id needs no cryptographic randomness, and
     * SecureRandom's lock and reads were 1.3 % of ingest's CPU at full load.
     */
    public static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }
}
