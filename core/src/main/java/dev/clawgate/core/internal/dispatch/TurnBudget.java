package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.run.RunHandle;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The time budget of every run (SPEC DI-6): when it passes, the run is cancelled as timed out. */
final class TurnBudget {
    private final ScheduledExecutorService timer;
    private final Supplier<Duration> budget;

    /** @param budget read when each run starts, so a reloaded budget applies to the next run */
    TurnBudget(ScheduledExecutorService timer, Supplier<Duration> budget) {
        this.timer = timer;
        this.budget = budget;
    }

    /** Starts the budget of {@code handle}'s run; the caller cancels the returned timer when the run ends. */
    ScheduledFuture<?> arm(RunHandle handle) {
        Duration limit = budget.get();
        return timer.schedule(
                () -> handle.cancel().cancel(RunHandle.REASON_TIMEOUT), limit.toMillis(), TimeUnit.MILLISECONDS);
    }
}
