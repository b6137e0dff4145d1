package io.queuegate.core.queue;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Who a queue's places belong to: how the user id a token is issued for is had at enter. The token is a function of
 * the product and the user id, so whoever may name a user id may hold that user's place; each identity says who may.
 */
public enum Identity {

    /** The server makes the user id (128 random bits) at the first enter; nobody can name one. */
    VISITOR,

    /** The shop's backend names its logged-in users, proving itself with an enter key. */
    TRUSTED,

    /** Every enter carries a pass the shop signed; the user id is the pass's subject. */
    PASS;

    /** The setting as it is written: {@code "visitor"}, {@code "trusted"}, {@code "pass"}. */
    @JsonValue
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The identity a setting names; null for null, so that a left-out setting keeps its default. */
    @JsonCreator
    public static Identity of(String value) {
        if (value == null) {
            return null;
        }
        for (Identity identity : values()) {
            if (identity.value().equals(value)) {
                return identity;
            }
        }
        throw new IllegalArgumentException("identity must be \"visitor\", \"trusted\" or \"pass\"");
    }
}
