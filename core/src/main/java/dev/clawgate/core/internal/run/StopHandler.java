package dev.clawgate.core.internal.run;

import dev.clawgate.core.store.InboxRecord;

/** Answers a {@code /stop} (SPEC DI-5) once the dispatcher has cancelled what it could. */
@FunctionalInterface
public interface StopHandler {
    /**
     * @param stopRecord the /stop message's own record
     * @param cancelledRun whether an active run of the scope was cancelled
     * @param cancelledQueued how many queued messages of the scope were cancelled
     */
    void stopped(InboxRecord stopRecord, boolean cancelledRun, int cancelledQueued);
}
