package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import java.time.Duration;

/**
 * How a busy session treats one more message (SPEC DI-3): the mode, the quiet window before a collected batch runs, the
 * cap on waiting messages and what to give up when it is reached.
 */
public record QueuePolicy(QueueMode mode, Duration quietWindow, int cap, DropPolicy drop) {
    public static QueuePolicy followup(int cap) {
        return new QueuePolicy(QueueMode.FOLLOWUP, Duration.ZERO, cap, DropPolicy.OLD);
    }
}
