package dev.clawgate.core.testing;

import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A scheduler whose clock moves only when a test says so: timers run inside {@link #advance}, on the test's thread. */
public final class ManualScheduler implements Scheduler {
    private record Task(long due, long seq, Runnable body, boolean[] cancelled) {}

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long seq;

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable body) {
        Task t = new Task(now + delay.toMillis(), seq++, body, new boolean[1]);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                t.cancelled()[0] = true;
            }
        };
    }

    /** Moves the clock on by {@code ms}, running each timer that falls due, in due order. */
    public void advance(long ms) {
        long target;
        synchronized (this) {
            target = now + ms;
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream()
                        .filter(t -> !t.cancelled()[0] && t.due() <= target)
                        .min(Comparator.comparingLong(Task::due).thenComparingLong(Task::seq))
                        .orElse(null);
                if (next == null) {
                    now = target;
                    tasks.removeIf(t -> t.cancelled()[0]);
                    return;
                }
                tasks.remove(next);
                now = Math.max(now, next.due());
            }
            next.body().run();
        }
    }

    /** Timers scheduled and neither run nor cancelled. */
    public synchronized int live() {
        return (int) tasks.stream().filter(t -> !t.cancelled()[0]).count();
    }
}
