package io.queuegate.yardstick.seed;

/** A token's state in the seed design: in the line, admitted, or neither. */
enum QueueStatus {
    WAITING, AVAILABLE, EXPIRED
}
