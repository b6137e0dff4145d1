package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BatchChunksTests {

    @Test
    void singleEnterRecordsAreCutByCount() {
        List<ConsumerRecord<String, byte[]>> records = records(10, 200);

        assertThat(LineWriter.chunks(records, 4)).extracting(List::size).containsExactly(4, 4, 2);
    }

    @Test
    void groupCommitRecordsAreCutByTheEntersTheyHold() {
        // 100 enters a record: a chunk of 2,000 enters is 20 records, not 2,000
        List<ConsumerRecord<String, byte[]>> records = records(50, 100 * LineWriter.BYTES_PER_ENTER);

        assertThat(LineWriter.chunks(records, 2_000)).extracting(List::size).containsExactly(20, 20, 10);
    }

    @Test
    void everyRecordIsInExactlyOneChunkInLogOrder() {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 37; i++) {
            records.add(record(i, (i % 5) * 3_000));
        }
        records.add(new ConsumerRecord<>("t", 0, 37, "k", null));

        List<ConsumerRecord<String, byte[]>> joined = new ArrayList<>();
        LineWriter.chunks(records, 50).forEach(joined::addAll);

        assertThat(joined).containsExactlyElementsOf(records);
    }

    private static List<ConsumerRecord<String, byte[]>> records(int count, int bytes) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(record(i, bytes));
        }
        return records;
    }

    private static ConsumerRecord<String, byte[]> record(long offset, int bytes) {
        return new ConsumerRecord<>("t", 0, offset, "k", new byte[bytes]);
    }
}
