package dev.clawgate.core.render;

import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A scheduler on a clock that moves only when a test says so (single-threaded tests only). The inbound package has its
 * own; that one is package-private there.
 */
final class ManualScheduler implements Scheduler {
    private record Task(long due, long seq, Runnable body, boolean[] cancelled) {}

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long seq;

    @Override
    public Cancellable schedule(Duration delay, Runnable body) {
        Task t = new Task(now + delay.toMillis(), seq++, body, new boolean[1]);
        tasks.add(t);
        return () -> t.cancelled()[0] = true;
    }

    /** Moves the clock on by {@code ms}, running each timer that falls due, in due order. */
    void advance(long ms) {
        long target = now + ms;
        while (true) {
            Task next = tasks.stream()
                    .filter(t -> !t.cancelled()[0] && t.due() <= target)
                    .min(Comparator.comparingLong(Task::due).thenComparingLong(Task::seq))
                    .orElse(null);
            if (next == null) break;
            tasks.remove(next);
            now = Math.max(now, next.due());
            next.body().run();
        }
        now = target;
        tasks.removeIf(t -> t.cancelled()[0]);
    }

    long now() {
        return now;
    }

    /** Timers scheduled and neither run nor cancelled. */
    int live() {
        return (int) tasks.stream().filter(t -> !t.cancelled()[0]).count();
    }
}
