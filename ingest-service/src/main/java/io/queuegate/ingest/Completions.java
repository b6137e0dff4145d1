package io.queuegate.ingest;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What a failed future of the enter or the poll failed with, without the wrappers its stages put around it. */
public final class Completions {

    private Completions() {
    }

    /** What failed, without the wrappers a future's stages put around it. */
    public static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** What failed, unwrapped, as something to throw: itself when unchecked (an Error is thrown at once). */
    public static RuntimeException rethrowable(Throwable failure) {
        Throwable cause = cause(failure);
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }
}
