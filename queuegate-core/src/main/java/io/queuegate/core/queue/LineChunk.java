package io.queuegate.core.queue;

import java.util.List;

import io.queuegate.core.token.Lane;
import io.queuegate.core.token.Token;

/**
 * One product's enter events from one stretch of one log partition, in log order: what one append script call
 * writes. The offsets let the line apply each record once and never after a later one (see
 * {@code append_waiting.lua}).
 *
 * @param productId the product whose line the users enter
 * @param source the log partition the events come from, {@code topic:partition}; the line keeps the last offset it
 *     applied from each source
 * @param after the offset the previous chunk of this product and source ended at, which the line must have applied
 *     before this one; {@link #UNKNOWN} for the first chunk of a consumer batch, since every earlier batch is in
 * @param offsets the offset of each user's record, ascending; several users may share one record
 * @param userIds the users, in log order; a user of the priority lane as {@link #member}, marked
 */
public record LineChunk(long productId, String source, long after, long[] offsets, List<String> userIds) {

    public static final long UNKNOWN = -1;

    /**
     * Put before a user id of the priority lane: not a character of user ids, so the line script tells the lanes
     * apart without a second list (see {@code append_waiting.lua}).
     */
    public static final char PRIORITY_MARK = '+';

    public LineChunk {
        if (offsets.length != userIds.size() || userIds.isEmpty()) {
            throw new IllegalArgumentException("a chunk needs one offset per user and at least one user");
        }
    }

    /** The offset of the chunk's last record: the {@link #after} of the next chunk of this product and source. */
    public long lastOffset() {
        return this.offsets[this.offsets.length - 1];
    }

    /** How the chunk names a token's user: the user id, marked when the token's place is in the priority lane. */
    public static String member(Token token) {
        return token.lane() == Lane.PRIORITY ? PRIORITY_MARK + token.userId() : token.userId();
    }

    /** The stats field that holds the last offset applied from a source. */
    static String appliedField(String source) {
        return "applied:" + source;
    }
}
