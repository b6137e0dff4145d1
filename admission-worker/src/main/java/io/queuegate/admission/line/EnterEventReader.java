package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.event.EntriesRequested;
import io.queuegate.core.event.EntryRequested;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an enter record of either version into the enters it carries, in order: a version 2 record
 * ({@link EntriesRequested}) holds many users of one product, a version 1 record ({@link EntryRequested}) one.
 * Both are read so that a topic written before the upgrade still drains.
 *
 * <p>Read token by token rather than bound to classes: in a burst, reading was the writer's largest single cost, ahead
 * of the token check, and binding each record to a class first and copying it into the enters took about twice as
 * long. It reads what binding read: fields it does not know are skipped, so that producers may add some before every
 * worker is upgraded, and a missing or null field is null (0 for {@code requestedAt}); a value of the wrong kind (an
 * object for a token, text for a product id that is no number, anything after the object) makes the record
 * unreadable.
 */
final class EnterEventReader {

    private final JsonMapper json;

    EnterEventReader(JsonMapper json) {
        this.json = json;
    }

    /** The enters of one record, or an empty list when it is not an enter record at all. */
    List<EntryRequested> read(byte[] value) {
        if (value == null) {
            return List.of();
        }
        try (JsonParser parser = this.json.createParser(value)) {
            return record(parser);
        }
        catch (JacksonException | Unreadable ex) {
            return List.of();
        }
    }

    private static List<EntryRequested> record(JsonParser parser) {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw Unreadable.INSTANCE;
        }
        Long productId = null;
        List<Enter> entries = null;
        Enter single = new Enter();
        for (String name = parser.nextName(); name != null; name = parser.nextName()) {
            JsonToken token = parser.nextToken();
            switch (name) {
                case "productId" -> productId = productId(parser, token);
                case "entries" -> entries = entries(parser, token);
                default -> single.read(name, parser, token);
            }
        }
        if (parser.nextToken() != null) {
            // anything after the record's object: not one record
            throw Unreadable.INSTANCE;
        }
        if (productId == null) {
            return List.of();
        }
        if (entries == null) {
            return single.token == null ? List.of() : List.of(single.of(productId));
        }
        List<EntryRequested> enters = new ArrayList<>(entries.size());
        for (Enter entry : entries) {
            if (entry.token != null) {
                enters.add(entry.of(productId));
            }
        }
        return enters;
    }

    private static Long productId(JsonParser parser, JsonToken token) {
        return switch (token) {
            case VALUE_NULL -> null;
            case VALUE_NUMBER_INT -> parser.getLongValue();
            case VALUE_STRING -> {
                try {
                    yield Long.parseLong(parser.getString().strip());
                }
                catch (NumberFormatException ex) {
                    throw Unreadable.INSTANCE;
                }
            }
            default -> throw Unreadable.INSTANCE;
        };
    }

    /** Version 2's list; null entries are left out, as they carry no token. */
    private static List<Enter> entries(JsonParser parser, JsonToken token) {
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token != JsonToken.START_ARRAY) {
            throw Unreadable.INSTANCE;
        }
        List<Enter> entries = new ArrayList<>();
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
            if (element == JsonToken.VALUE_NULL) {
                continue;
            }
            if (element != JsonToken.START_OBJECT) {
                throw Unreadable.INSTANCE;
            }
            Enter entry = new Enter();
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                entry.read(name, parser, parser.nextToken());
            }
            entries.add(entry);
        }
        return entries;
    }

    /** The fields of one enter, as they are read: a version 1 record's own, or one element of version 2's list. */
    private static final class Enter {

        private String token;

        private String userId;

        private String requestId;

        private long requestedAt;

        void read(String name, JsonParser parser, JsonToken value) {
            switch (name) {
                case "token" -> this.token = text(parser, value);
                case "userId" -> this.userId = text(parser, value);
                case "requestId" -> this.requestId = text(parser, value);
                case "requestedAt" -> this.requestedAt = number(parser, value);
                default -> parser.skipChildren();
            }
        }

        EntryRequested of(long productId) {
            return new EntryRequested(productId, this.token, this.userId, this.requestId, this.requestedAt);
        }

        private static String text(JsonParser parser, JsonToken value) {
            if (value.isStructStart()) {
                throw Unreadable.INSTANCE;
            }
            return value == JsonToken.VALUE_NULL ? null : parser.getValueAsString();
        }

        private static long number(JsonParser parser, JsonToken value) {
            if (value.isStructStart()) {
                throw Unreadable.INSTANCE;
            }
            return parser.getValueAsLong(0);
        }
    }

    /** A record that is JSON but not an enter record: thrown to stop reading it, without a stack trace. */
    private static final class Unreadable extends RuntimeException {

        static final Unreadable INSTANCE = new Unreadable();

        private Unreadable() {
            super("not an enter record", null, false, false);
        }
    }
}
