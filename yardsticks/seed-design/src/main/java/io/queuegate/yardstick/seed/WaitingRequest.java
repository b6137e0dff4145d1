package io.queuegate.yardstick.seed;

/** The enter request's body; the seed's token does not depend on it, but the post reads it. */
record WaitingRequest(String userId) {
}
