package dev.clawgate.core.dispatch;

import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;

/**
 * Runs one turn to its end. It owns the record's final state: when it returns, the record is in
 * a final state (or left for the dispatcher to fail if it threw).
 */
@FunctionalInterface
public interface TurnRunner {
    void run(RunHandle handle) throws Exception;

    /**
     * {@code record} passed admission and now waits for its turn (SPEC RP-5: receipt is shown at
     * once, not when the turn starts). Runs on the dispatcher's thread: it must not block.
     */
    default void admitted(InboxRecord record) {
    }
}
