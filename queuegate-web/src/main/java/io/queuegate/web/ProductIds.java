package io.queuegate.web;

import java.util.regex.Pattern;

/**
 * The one reading of a product id. Strict on purpose: a queue answers to exactly one spelling of its id, not to
 * {@code 0x2A}, {@code +42}, {@code 042} or digits of other scripts, which a lenient number conversion accepts.
 */
public final class ProductIds {

    private static final Pattern CANONICAL = Pattern.compile("[1-9][0-9]{0,18}");

    private ProductIds() {
    }

    /** @throws ApiException 400 {@code invalid_request} unless the text is a positive id in plain ASCII digits */
    public static long parse(String text) {
        if (text == null || !CANONICAL.matcher(text).matches()) {
            throw ApiException.invalidRequest("productId must be a positive integer in plain digits.");
        }
        try {
            return Long.parseLong(text);
        }
        catch (NumberFormatException ex) {
            throw ApiException.invalidRequest("productId is too large.");
        }
    }
}
