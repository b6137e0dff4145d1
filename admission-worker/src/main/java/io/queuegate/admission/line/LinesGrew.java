package io.queuegate.admission.line;

import java.util.Set;

/**
 * Published by the line writer after a batch put new users into these products' lines, so that admission can step
 * them now instead of at its next tick: people who find free capacity are admitted within milliseconds of being in
 * line, and nobody reads a line that has grown but not yet moved for up to a tick.
 */
public record LinesGrew(Set<Long> productIds) {

    public LinesGrew {
        productIds = Set.copyOf(productIds);
    }
}
