package io.queuegate.yardstick.seed;

/** A status poll's answer; {@code rank} is the place in line counted from 1, 0 when not waiting. */
record QueueStatusResponse(QueueStatus status, long rank, String token, String message) {
}
