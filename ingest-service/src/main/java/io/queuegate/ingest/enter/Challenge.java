package io.queuegate.ingest.enter;

/**
 * A proof-of-work challenge, as ALTCHA's widgets and libraries read it: find the number n (0..maxnumber) for which
 * SHA-256(salt + n), in hex, is {@code challenge}.
 *
 * @param algorithm always SHA-256
 * @param challenge the hash to find the number of
 * @param maxnumber the largest the number may be
 * @param salt random, then {@code ?expires=<epoch s>&product=<id>&user=<id>}
 * @param signature HMAC-SHA256 of the challenge with ingest's key: the proof that ingest made it
 */
record Challenge(String algorithm, String challenge, long maxnumber, String salt, String signature) {
}
