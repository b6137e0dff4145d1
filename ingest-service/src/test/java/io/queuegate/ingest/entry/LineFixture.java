package io.queuegate.ingest.entry;

import java.util.List;

import io.queuegate.core.queue.LineChunk;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.token.TokenCodec;

import org.springframework.data.redis.core.StringRedisTemplate;

/** Puts users into a product's line as the writer does, as if their enters were records 0, 1, 2... of one partition. */
final class LineFixture {

    private LineFixture() {
    }

    static void append(StringRedisTemplate redis, long productId, List<String> userIds) {
        long[] offsets = new long[userIds.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = i;
        }
        new WaitingLine(redis).append(new LineChunk(productId, "fixture:0", LineChunk.UNKNOWN, offsets, userIds));
    }

    /** The users of tokens this codec issued. */
    static List<String> usersOf(TokenCodec codec, List<String> tokens) {
        return tokens.stream().map((token) -> codec.verify(token).orElseThrow().userId()).toList();
    }
}
