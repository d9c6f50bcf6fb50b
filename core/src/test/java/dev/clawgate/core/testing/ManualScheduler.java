package dev.clawgate.core.testing;

import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scheduler on a clock that moves only when a test says so: timers fire inside {@link #advance(Duration)}, on the
 * test's thread, outside the scheduler's lock (so a timer may schedule another).
 */
public final class ManualScheduler implements Scheduler {

    private static final class Task {
        final long due;
        final long seq;
        final Runnable body;
        volatile boolean cancelled;

        Task(long due, long seq, Runnable body) {
            this.due = due;
            this.seq = seq;
            this.body = body;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final List<Task> tasks = new ArrayList<>();
    private long nowMs;
    private long seq;

    @Override
    public Cancellable schedule(Duration delay, Runnable body) {
        lock.lock();
        try {
            Task t = new Task(nowMs + delay.toMillis(), seq++, body);
            tasks.add(t);
            return () -> t.cancelled = true;
        } finally {
            lock.unlock();
        }
    }

    /** Moves the clock on, running every timer that falls due, in due order, outside this scheduler's lock. */
    public void advance(Duration by) {
        long target;
        lock.lock();
        try {
            target = nowMs + by.toMillis();
        } finally {
            lock.unlock();
        }
        while (true) {
            Task next;
            lock.lock();
            try {
                next = tasks.stream()
                        .filter(t -> !t.cancelled && t.due <= target)
                        .min(Comparator.<Task>comparingLong(t -> t.due).thenComparingLong(t -> t.seq))
                        .orElse(null);
                if (next == null) {
                    nowMs = Math.max(nowMs, target);
                    tasks.removeIf(t -> t.cancelled);
                    return;
                }
                tasks.remove(next);
                nowMs = Math.max(nowMs, next.due);
            } finally {
                lock.unlock();
            }
            next.body.run();
        }
    }

    public void advanceMillis(long ms) {
        advance(Duration.ofMillis(ms));
    }

    /** The clock's time, in milliseconds since it started at 0. */
    public long now() {
        lock.lock();
        try {
            return nowMs;
        } finally {
            lock.unlock();
        }
    }

    /** Moves the clock on by {@code ms}. */
    public void advance(long ms) {
        advance(Duration.ofMillis(ms));
    }

    /** Timers scheduled and neither run nor cancelled. */
    public int live() {
        lock.lock();
        try {
            return (int) tasks.stream().filter(t -> !t.cancelled).count();
        } finally {
            lock.unlock();
        }
    }
}
