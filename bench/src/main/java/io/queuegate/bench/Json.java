package io.queuegate.bench;

/** Reads one top-level field of the services' small flat JSON answers without a parser on the hot path. */
final class Json {

    private Json() {
    }

    /** The field's value as text (strings unquoted), or null when absent or JSON null. */
    static String field(String json, String name) {
        String needle = "\"" + name + "\":";
        int at = json.indexOf(needle);
        if (at < 0) {
            return null;
        }
        int start = at + needle.length();
        while (start < json.length() && json.charAt(start) == ' ') {
            start++;
        }
        if (start >= json.length()) {
            return null;
        }
        if (json.charAt(start) == '"') {
            int end = json.indexOf('"', start + 1);
            return end < 0 ? null : json.substring(start + 1, end);
        }
        int end = start;
        while (end < json.length() && ",}] ".indexOf(json.charAt(end)) < 0) {
            end++;
        }
        String value = json.substring(start, end);
        return value.equals("null") ? null : value;
    }

    static long longField(String json, String name, long fallback) {
        String value = field(json, name);
        return value == null ? fallback : Long.parseLong(value);
    }
}
