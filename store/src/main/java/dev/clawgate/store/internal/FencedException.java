package dev.clawgate.store.internal;

import dev.clawgate.core.store.StoreException;

/**
 * A write refused because the cluster took the work from this node (SPEC OP-2): it was declared dead (a pause past its
 * lease, a partition) and another node owns that work now.
 */
public final class FencedException extends StoreException {
    public FencedException(String message) {
        super(message, null);
    }
}
