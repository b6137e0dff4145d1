package io.queuegate.core.queue;

/**
 * What the line did with one {@link LineChunk}.
 *
 * @param refused whether the line refused the chunk because the chunk before it was not applied; nothing was
 *     written, and the writer must send both again
 * @param added users who joined the line
 * @param applied the last offset the line has applied from the chunk's source afterwards
 * @param restarted whether the chunk was refused because the Redis process holding the line restarted or failed over
 *     since the line was last written, and may have lost its last writes: the sale must be restored and the log read
 *     again before anything is appended
 */
public record AppendResult(boolean refused, long added, long applied, boolean restarted) {

    public AppendResult(boolean refused, long added, long applied) {
        this(refused, added, applied, false);
    }
}
