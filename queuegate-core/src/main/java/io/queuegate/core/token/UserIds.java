package io.queuegate.core.token;

import java.util.regex.Pattern;

/** The one definition of a well-formed user id, shared by request validation and token decoding. */
public final class UserIds {

    public static final int MAX_LENGTH = 64;

    /** Characters that survive a URL path, a log line and a Redis argument without escaping. */
    public static final String ALLOWED = "^[A-Za-z0-9._@:-]{1," + MAX_LENGTH + "}$";

    private static final Pattern PATTERN = Pattern.compile(ALLOWED);

    private UserIds() {
    }

    public static boolean isValid(String userId) {
        return userId != null && PATTERN.matcher(userId).matches();
    }
}
