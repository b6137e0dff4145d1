package io.queuegate.core.token;

/**
 * Which part of a line a token's place is in. The priority lane is admitted before the general line, in log order
 * within it; a shop grants it with a signed pass at enter ({@code lane: "priority"}).
 */
public enum Lane {

    GENERAL,

    PRIORITY
}
