package io.queuegate.ingest.edge;

/**
 * What the proxy is told ({@link EdgeCheck}), in the headers it copies ({@code auth_request_set}).
 *
 * @param status 204 to pass the request to the origin, 401 for anything else
 * @param action {@code pass}, {@code return} (set the cookie, redirect to the clean URL) or {@code wait} (to the
 *        waiting page: a redirect for a page, 403 with the page's URL for a request that asks for JSON)
 * @param location the clean URL's path and query for {@code return}; the waiting page's URL for {@code wait}
 * @param cookie the {@code Set-Cookie} value for the proxy to send; null when none is to be set
 */
record EdgeAnswer(int status, String action, String location, String cookie) {

    static final EdgeAnswer PASS = new EdgeAnswer(204, "pass", null, null);

    static EdgeAnswer passWith(String cookie) {
        return new EdgeAnswer(204, "pass", null, cookie);
    }

    static EdgeAnswer returnTo(String target, String cookie) {
        return new EdgeAnswer(401, "return", target, cookie);
    }

    static EdgeAnswer toLine(String waitingPage) {
        return new EdgeAnswer(401, "wait", waitingPage, null);
    }
}
