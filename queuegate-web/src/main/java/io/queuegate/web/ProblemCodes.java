package io.queuegate.web;

import org.springframework.http.HttpStatusCode;

/** The {@code code} member of every problem answer. Clients switch on these; they never change meaning. */
public final class ProblemCodes {

    public static final String INVALID_REQUEST = "invalid_request";
    public static final String INVALID_TOKEN = "invalid_token";
    public static final String QUEUE_NOT_FOUND = "queue_not_found";
    public static final String QUEUE_CLOSED = "queue_closed";
    public static final String UNAUTHORIZED = "unauthorized";
    public static final String NOT_FOUND = "not_found";
    public static final String METHOD_NOT_ALLOWED = "method_not_allowed";
    public static final String NOT_ACCEPTABLE = "not_acceptable";
    public static final String UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
    public static final String PAYLOAD_TOO_LARGE = "payload_too_large";
    public static final String UNAVAILABLE = "unavailable";
    public static final String TOKEN_NOT_ADMITTED = "token_not_admitted";
    public static final String SOLD_OUT = "sold_out";
    public static final String POLLED_TOO_SOON = "polled_too_soon";
    public static final String TOO_MANY_REQUESTS = "too_many_requests";
    public static final String PROOF_REQUIRED = "proof_required";
    public static final String PROOF_INVALID = "proof_invalid";
    public static final String PASS_REQUIRED = "pass_required";
    public static final String PASS_INVALID = "pass_invalid";
    public static final String USER_ID_NOT_ACCEPTED = "user_id_not_accepted";
    public static final String USER_ID_REQUIRED = "user_id_required";
    public static final String ENTER_KEY_REQUIRED = "enter_key_required";
    public static final String ENTER_KEY_INVALID = "enter_key_invalid";
    public static final String TOO_MANY_HELD = "too_many_held";
    public static final String INTERNAL_ERROR = "internal_error";
    public static final String REQUEST_TIMEOUT = "request_timeout";
    public static final String RETURN_URL_REFUSED = "return_url_refused";
    /**
     * Answered by a proxy that protects a shop's site (ops/edge: nginx, HAProxy), not by a service: a request that
     * asks for JSON without an admission, 403, with the waiting page's URL.
     */
    public static final String QUEUE_REQUIRED = "queue_required";

    private ProblemCodes() {
    }

    /** The code of a refusal that carries none of its own (the framework's, a store's): the status's general one. */
    public static String forStatus(HttpStatusCode status) {
        return switch (status.value()) {
            case 400 -> INVALID_REQUEST;
            case 401 -> UNAUTHORIZED;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 408 -> REQUEST_TIMEOUT;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 503 -> UNAVAILABLE;
            default -> status.is4xxClientError() ? INVALID_REQUEST : INTERNAL_ERROR;
        };
    }
}
