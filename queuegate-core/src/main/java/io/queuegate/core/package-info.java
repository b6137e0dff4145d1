/**
 * The queue domain, without HTTP: a <em>product</em> is on sale; its <em>queue</em> is the waiting room as the
 * operator set it up ({@code queue:{p}}); its <em>line</em> is the people waiting, in log order
 * ({@code waiting:{p}}); to <em>enter</em> is to join the line; a <em>token</em> is a user's signed place;
 * to <em>admit</em> is to move the head of the line into the admitted set, where each <em>entry</em> is an
 * admission scored by its expiry ({@code entry:{p}}); to <em>book</em> is to consume an entry and take stock.
 *
 * <p>{@code token} signs and reads tokens, {@code queue} holds the keys, the Lua scripts' Java callers and the
 * status model, {@code event} the Kafka events. The README's "Words" table says the same for the whole project.
 */
package io.queuegate.core;
