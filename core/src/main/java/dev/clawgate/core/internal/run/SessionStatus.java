package dev.clawgate.core.internal.run;

import dev.clawgate.core.run.RunHandle;

/**
 * What {@code /status} shows about a session (SPEC RT-1).
 *
 * @param runStartedAt when the active run started, or null when none runs
 * @param tool the tool the active run waits on, or null
 */
public record SessionStatus(boolean running, int queued, java.time.Instant runStartedAt, RunHandle.RunningTool tool) {
    public SessionStatus(boolean running, int queued) {
        this(running, queued, null, null);
    }
}
