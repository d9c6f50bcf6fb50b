package dev.clawgate.core.dispatch;

import dev.clawgate.core.run.RunHandle;

/**
 * Runs one turn to its end. It owns the record's final state: when it returns, the record is in
 * a final state (or left for the dispatcher to fail if it threw).
 */
@FunctionalInterface
public interface TurnRunner {
    void run(RunHandle handle) throws Exception;
}
