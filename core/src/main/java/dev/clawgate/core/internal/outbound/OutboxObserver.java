package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;

/**
 * Told each state the outbox records for an entry, right after the store took it (SPEC OP-5 metrics, OUT-7 reporting of
 * {@code unknown_after_send}). The store stays the record; an observer only counts. It must not block; one that throws
 * is logged and the delivery goes on.
 */
@FunctionalInterface
public interface OutboxObserver {
    OutboxObserver NONE = (entry, state) -> {};

    /** {@code entry} (as it stood before) is now recorded in {@code state}. */
    void recorded(OutboxEntry entry, OutboxState state);
}
