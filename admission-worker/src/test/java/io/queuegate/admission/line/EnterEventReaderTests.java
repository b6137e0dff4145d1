package io.queuegate.admission.line;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.queuegate.core.event.EntriesRequested;
import io.queuegate.core.event.EntryRequested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class EnterEventReaderTests {

    private final EnterEventReader reader = new EnterEventReader(JsonMapper.shared());

    @Test
    void aVersionTwoRecordGivesItsEntersInOrder() {
        byte[] record = JsonMapper.shared().writeValueAsBytes(new EntriesRequested(7, List.of(
                new EntriesRequested.Entry("t1", "u1", "r1", 10), new EntriesRequested.Entry("t2", "u2", "r2", 11),
                new EntriesRequested.Entry("t3", "u3", "r3", 12))));

        assertThat(this.reader.read(record)).containsExactly(new EntryRequested(7, "t1", "u1", "r1", 10),
                new EntryRequested(7, "t2", "u2", "r2", 11), new EntryRequested(7, "t3", "u3", "r3", 12));
    }

    @Test
    void aVersionOneRecordStillReads() {
        byte[] record = JsonMapper.shared().writeValueAsBytes(new EntryRequested(7, "t1", "u1", "r1", 10));

        assertThat(this.reader.read(record)).containsExactly(new EntryRequested(7, "t1", "u1", "r1", 10));
    }

    @Test
    void unknownFieldsAreIgnored() {
        assertThat(read("{\"version\":3,\"productId\":7,\"region\":\"eu\",\"entries\":[{\"token\":\"t1\",\"seat\":1}]}"))
            .containsExactly(new EntryRequested(7, "t1", null, null, 0));
    }

    @Test
    void whatIsNoEnterGivesNothing() {
        assertThat(this.reader.read(null)).isEmpty();
        assertThat(read("not json")).isEmpty();
        assertThat(read("{}")).isEmpty();
        assertThat(read("{\"productId\":7}")).isEmpty();
        assertThat(read("{\"token\":\"t1\"}")).isEmpty();
        assertThat(read("{\"productId\":7,\"entries\":[null,{\"userId\":\"u\"},{\"token\":\"t2\"}]}"))
            .containsExactly(new EntryRequested(7, "t2", null, null, 0));
    }

    @Test
    void fieldsMayComeInAnyOrderAndNestedUnknownsAreSkipped() {
        assertThat(read("{\"entries\":[{\"requestedAt\":5,\"extra\":{\"a\":[1,{\"token\":\"x\"}]},"
                + "\"userId\":\"u1\",\"token\":\"t1\"}],\"meta\":[{\"productId\":1}],\"productId\":7}"))
            .containsExactly(new EntryRequested(7, "t1", "u1", null, 5));
    }

    @Test
    void aValueOfTheWrongKindMakesTheRecordUnreadable() {
        assertThat(read("{\"productId\":\"seven\",\"token\":\"t1\"}")).isEmpty();
        assertThat(read("{\"productId\":7,\"token\":{\"v\":\"t1\"}}")).isEmpty();
        assertThat(read("{\"productId\":7,\"entries\":[1,{\"token\":\"t2\"}]}")).isEmpty();
        assertThat(read("{\"productId\":7,\"entries\":{\"token\":\"t2\"}}")).isEmpty();
        assertThat(read("{\"productId\":7,\"entries\":[{\"token\":\"t2\"}")).isEmpty();
        assertThat(read("[{\"productId\":7,\"token\":\"t1\"}]")).isEmpty();
        assertThat(read("{\"productId\":7,\"token\":\"t1\"} {\"productId\":8}")).isEmpty();
    }

    @Test
    void nullsAreAbsentValues() {
        assertThat(read("{\"productId\":7,\"token\":\"t1\",\"userId\":null,\"requestedAt\":null}"))
            .containsExactly(new EntryRequested(7, "t1", null, null, 0));
        assertThat(read("{\"productId\":null,\"token\":\"t1\"}")).isEmpty();
    }

    private List<EntryRequested> read(String json) {
        return this.reader.read(json.getBytes(StandardCharsets.UTF_8));
    }
}
