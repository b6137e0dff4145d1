package io.queuegate.core.queue;

/** Reads the numbers in a script's reply, which Redis hands over as integers or, from a hash, as strings. */
final class ScriptReplies {

    private ScriptReplies() {
    }

    /** @return the number, or 0 for a nil (a field the script found unset) */
    static long number(Object value) {
        return value == null ? 0 : Long.parseLong(value.toString());
    }
}
