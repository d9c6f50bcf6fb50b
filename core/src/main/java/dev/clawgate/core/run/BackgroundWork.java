package dev.clawgate.core.run;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded home for fire-and-forget work (ARCHITECTURE: bounded everything): at most {@code threads} virtual threads
 * and {@code queued} waiting tasks. Past that a task is dropped with a warning, so a flood costs log lines, never
 * memory. Idle threads end on their own: nothing to close.
 */
public final class BackgroundWork implements Executor {
    private static final Logger log = LoggerFactory.getLogger(BackgroundWork.class);

    private final String name;
    private final ThreadPoolExecutor pool;

    public BackgroundWork(String name, int threads, int queued) {
        if (threads < 1 || queued < 1) {
            throw new IllegalArgumentException(
                    "background work needs a thread and a queue slot, got " + threads + " and " + queued);
        }
        this.name = name;
        this.pool = new ThreadPoolExecutor(
                threads,
                threads,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queued),
                Thread.ofVirtual().name(name + "-", 0).factory(),
                (task, p) -> log.warn(
                        "{}: {} tasks waiting already; one dropped",
                        this.name,
                        p.getQueue().size()));
        this.pool.allowCoreThreadTimeOut(true);
    }

    /** Runs {@code task} on one of the threads, soon; drops it (logged) when the queue is full or shut down. */
    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    /** Tasks started or waiting: for tests and metrics. */
    public int pending() {
        return pool.getActiveCount() + pool.getQueue().size();
    }
}
