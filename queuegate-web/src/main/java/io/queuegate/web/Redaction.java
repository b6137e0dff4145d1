package io.queuegate.web;

import java.util.regex.Pattern;

/**
 * What may be logged of a request, or told in a problem's {@code detail}: never a place's token. A token is a bearer
 * secret (whoever has it holds the place, and it names its user), and the API carries it in paths
 * ({@code /api/v1/queues/{p}/entries/{token}}, its {@code /events}); a logged path has it replaced by
 * {@value #TOKEN}, and its query left off.
 */
public final class Redaction {

    /** What a token is replaced by. */
    public static final String TOKEN = "{token}";

    /**
     * The segment after {@code entries/}, with or without the path's leading slash (WebFlux's "No static resource
     * api/v1/…" has none). A trailing full stop is left: the sentence's, as in "No endpoint GET /…/entries/abc.".
     */
    private static final Pattern TOKEN_SEGMENT = Pattern.compile("(?<=entries/)[^/?#\\s\"']*[^/?#\\s\"'.]");

    private Redaction() {
    }

    /** A request's path or URI as it may be logged: without its query and fragment, its tokens replaced. */
    public static String path(String pathOrUri) {
        if (pathOrUri == null) {
            return null;
        }
        int end = pathOrUri.length();
        for (char stop : new char[] { '?', '#' }) {
            int at = pathOrUri.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return text(pathOrUri.substring(0, end));
    }

    /** A sentence (a problem's detail, an exception's message) with every token of a path in it replaced. */
    public static String text(String text) {
        if (text == null || !text.contains("entries/")) {
            return text;
        }
        return TOKEN_SEGMENT.matcher(text).replaceAll(TOKEN);
    }
}
