package io.queuegate.core.queue;

/**
 * What the line did with one {@link LineChunk}.
 *
 * @param refused whether the line refused the chunk because the chunk before it was not applied; nothing was
 *     written, and the writer must send both again
 * @param added users who joined the line
 * @param applied the last offset the line has applied from the chunk's source afterwards
 */
public record AppendResult(boolean refused, long added, long applied) {
}
