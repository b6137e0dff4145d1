package io.queuegate.ingest;

/**
 * The paths of the API's {@code entries} resource, spelled once: the controllers ({@link EntriesResource}), the
 * front's routes, the Location of a 202, and the raw-path checks made before any handler is mapped (the per-client
 * limits, the burst paths left out of per-request observation).
 */
public final class EntriesPaths {

    /** Where a product's line is entered: {@code POST}. */
    public static final String ENTRIES = "/api/v1/queues/{productId}/entries";

    /** A token's place: {@code GET} to poll, {@code DELETE} to leave. */
    public static final String TOKEN = ENTRIES + "/{token}";

    private static final String QUEUES = "/api/v1/queues/";

    private static final String ENTRIES_SEGMENT = "/entries";

    private static final String CHALLENGE_SEGMENT = "/challenge";

    private static final String EVENTS_SEGMENT = "/events";

    private EntriesPaths() {
    }

    /** The place of an accepted enter: the Location of the 202. */
    public static String location(long productId, String token) {
        return QUEUES + productId + ENTRIES_SEGMENT + "/" + token;
    }

    /** {@code POST /api/v1/queues/{p}/entries}, from the raw path. */
    public static boolean isEnter(String method, String path) {
        return "POST".equals(method) && ENTRIES_SEGMENT.equals(afterProduct(path));
    }

    /** {@code GET /api/v1/queues/{p}/entries/{token}}, from the raw path. */
    public static boolean isPoll(String method, String path) {
        return "GET".equals(method) && namesOneToken(afterProduct(path));
    }

    /** Whether what follows the product is {@code /entries/{token}}, with a non-empty token and nothing after it. */
    private static boolean namesOneToken(String rest) {
        return rest != null && rest.startsWith(ENTRIES_SEGMENT + "/") && rest.length() > ENTRIES_SEGMENT.length() + 1
                && rest.indexOf('/', ENTRIES_SEGMENT.length() + 1) < 0;
    }

    /** {@code DELETE /api/v1/queues/{p}/entries/{token}}, a leave, from the raw path. */
    public static boolean isLeave(String method, String path) {
        return "DELETE".equals(method) && namesOneToken(afterProduct(path));
    }

    /** {@code GET /api/v1/queues/{p}/entries/{token}/events}, a place's event stream, from the raw path. */
    public static boolean isEventStream(String method, String path) {
        String rest = afterProduct(path);
        if (!"GET".equals(method) || rest == null || !rest.startsWith(ENTRIES_SEGMENT + "/")
                || !rest.endsWith(EVENTS_SEGMENT)) {
            return false;
        }
        String token = rest.substring(ENTRIES_SEGMENT.length() + 1, rest.length() - EVENTS_SEGMENT.length());
        return !token.isEmpty() && token.indexOf('/') < 0;
    }

    /** {@code GET /api/v1/queues/{p}/challenge}, from the raw path. */
    public static boolean isChallengeFetch(String method, String path) {
        return "GET".equals(method) && CHALLENGE_SEGMENT.equals(afterProduct(path));
    }

    /** What follows {@code /api/v1/queues/{p}} (a non-empty product segment), or null. */
    private static String afterProduct(String path) {
        if (path == null || !path.startsWith(QUEUES)) {
            return null;
        }
        int slash = path.indexOf('/', QUEUES.length());
        return slash <= QUEUES.length() ? null : path.substring(slash);
    }
}
