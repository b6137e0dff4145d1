package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.event.EntriesRequested;
import io.queuegate.core.event.EntryRequested;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an enter record of either version into the enters it carries, in order: a version 2 record
 * ({@link EntriesRequested}) holds many users of one product, a version 1 record ({@link EntryRequested}) one.
 * Both are read so that a topic written before the upgrade still drains.
 */
final class EnterEventReader {

    /**
     * Tolerates fields it does not know, so that producers may add some before every worker is upgraded, and the
     * other version's fields being absent.
     */
    private final ObjectReader records;

    EnterEventReader(JsonMapper json) {
        this.records = json.readerFor(AnyVersion.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /** The enters of one record, or an empty list when it is not an enter record at all. */
    List<EntryRequested> read(byte[] value) {
        if (value == null) {
            return List.of();
        }
        AnyVersion record;
        try {
            record = this.records.readValue(value);
        }
        catch (JacksonException ex) {
            return List.of();
        }
        if (record == null || record.productId() == null) {
            return List.of();
        }
        if (record.entries() == null) {
            return record.token() == null ? List.of() : List.of(new EntryRequested(record.productId(),
                    record.token(), record.userId(), record.requestId(), record.requestedAt()));
        }
        List<EntryRequested> enters = new ArrayList<>(record.entries().size());
        for (EntriesRequested.Entry entry : record.entries()) {
            if (entry != null && entry.token() != null) {
                enters.add(new EntryRequested(record.productId(), entry.token(), entry.userId(), entry.requestId(),
                        entry.requestedAt()));
            }
        }
        return enters;
    }

    /** The fields of both versions: {@code entries} is set in version 2, {@code token} and the rest in version 1. */
    private record AnyVersion(Long productId, List<EntriesRequested.Entry> entries, String token, String userId,
            String requestId, long requestedAt) {
    }
}
