package dev.clawgate.core.run;

import dev.clawgate.core.store.InboxRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Messages steered into an active run (SPEC DI-3 steer): the dispatcher offers them, the run takes them before its next
 * model call. Once closed (the run ended) it refuses new ones and hands back what no model call saw, so they can run as
 * a followup.
 */
public final class SteerBox {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<InboxRecord> pending = new ArrayList<>();
    /** What the run took: its reply answers them too (SPEC RP-5 settles their receipts with the run). */
    private final List<InboxRecord> taken = new ArrayList<>();

    private boolean closed;

    /**
     * False when the run has already ended, or when {@code max} messages already wait (a flood must not grow it): then
     * the caller queues the message, where the cap and drop policy apply.
     */
    public boolean offer(InboxRecord r, int max) {
        lock.lock();
        try {
            if (closed || pending.size() >= max) return false;
            pending.add(r);
            return true;
        } finally {
            lock.unlock();
        }
    }

    public boolean hasPending() {
        lock.lock();
        try {
            return !pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Takes everything offered so far, oldest first, for the run's next model call. */
    public List<InboxRecord> drain() {
        lock.lock();
        try {
            List<InboxRecord> out = List.copyOf(pending);
            pending.clear();
            taken.addAll(out);
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Everything {@link #drain} handed to the run so far, oldest first. */
    public List<InboxRecord> taken() {
        lock.lock();
        try {
            return List.copyOf(taken);
        } finally {
            lock.unlock();
        }
    }

    /** Removes the records a predicate selects (a /stop of their scope) and returns them. */
    public List<InboxRecord> removeIf(java.util.function.Predicate<InboxRecord> which) {
        lock.lock();
        try {
            List<InboxRecord> out = new ArrayList<>();
            pending.removeIf(r -> which.test(r) && out.add(r));
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Ends steering; returns what was offered but never taken. */
    public List<InboxRecord> close() {
        lock.lock();
        try {
            closed = true;
            List<InboxRecord> unseen = List.copyOf(pending);
            pending.clear();
            return unseen;
        } finally {
            lock.unlock();
        }
    }
}
