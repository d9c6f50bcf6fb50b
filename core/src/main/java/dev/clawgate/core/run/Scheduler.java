package dev.clawgate.core.run;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task once after a delay. The only notion of time of the debouncer, the live previews and the typing refresh,
 * so tests drive them with a manual clock instead of sleeping.
 */
@FunctionalInterface
public interface Scheduler {

    /** Runs {@code task} once, {@code delay} from now, unless cancelled first. */
    Cancellable schedule(Duration delay, Runnable task);

    /** A scheduled task that has not run yet. */
    @FunctionalInterface
    interface Cancellable {
        /** Keeps the task from running if it has not started; does nothing otherwise. Never blocks. */
        void cancel();
    }

    /** A scheduler on an executor: tasks run on the executor's threads. */
    static Scheduler using(ScheduledExecutorService executor) {
        Objects.requireNonNull(executor, "executor");
        return (delay, task) -> {
            ScheduledFuture<?> future = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        };
    }

    /** A scheduler on a timer thread of its own (see {@link #daemonTimer}). */
    static Scheduler daemon(String threadName) {
        return using(daemonTimer(threadName));
    }

    /**
     * A one-thread daemon timer whose cancelled tasks leave its queue at once: a long timer (a turn's 20-minute budget,
     * a model call's idle watch) that is cancelled must not pin what it refers to until it would have run (SPEC OP-7).
     */
    static ScheduledExecutorService daemonTimer(String threadName) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name(threadName).factory());
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
