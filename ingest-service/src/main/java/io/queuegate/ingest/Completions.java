package io.queuegate.ingest;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The blocking side of the asynchronous enter and poll: a servlet request thread waits, the HTTP front does not. */
public final class Completions {

    private Completions() {
    }

    /** The future's value, waiting for it; a failure is rethrown as itself (an ApiException stays one). */
    public static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for an answer", ex);
        }
        catch (ExecutionException ex) {
            throw rethrowable(ex);
        }
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
