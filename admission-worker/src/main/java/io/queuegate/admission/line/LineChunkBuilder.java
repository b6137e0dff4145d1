package io.queuegate.admission.line;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.token.Token;

/** Collects one product's verified users (marked by lane, {@link LineChunk#member}) from one chunk of the log, with the offset of each one's record. */
final class LineChunkBuilder {

    private final LineSource source;

    private final List<String> userIds = new ArrayList<>();

    private long[] offsets = new long[64];

    LineChunkBuilder(LineSource source) {
        this.source = source;
    }

    LineSource source() {
        return this.source;
    }

    void add(long offset, Token token) {
        if (this.userIds.size() == this.offsets.length) {
            this.offsets = Arrays.copyOf(this.offsets, this.offsets.length * 2);
        }
        this.offsets[this.userIds.size()] = offset;
        this.userIds.add(LineChunk.member(token));
    }

    /** @param after the offset the previous chunk of this product and partition ended at */
    LineChunk build(long after) {
        return new LineChunk(this.source.productId(), this.source.name(), after,
                Arrays.copyOf(this.offsets, this.userIds.size()), List.copyOf(this.userIds));
    }
}
