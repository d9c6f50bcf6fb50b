package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;

/**
 * One session's place in the dispatcher: its active run and the messages waiting behind it. Not thread-safe: the
 * dispatcher touches it only under its lock. Pure: no thread, clock or store.
 */
final class SessionLane {
    final SessionKey key;
    final List<Pending> queue = new ArrayList<>();
    /** One line per message a full queue dropped, for the next run (SPEC DI-3 drop=summarize). */
    final List<String> dropped = new ArrayList<>();
    /** Senders already told "queued" during the active run (SPEC DI-3: once per run). */
    final Set<String> noticed = new HashSet<>();

    RunHandle active;
    ScopeKey activeScope;
    /** Set while a collected batch waits for its quiet window. */
    ScheduledFuture<?> quietTimer;

    SessionLane(SessionKey key) {
        this.key = key;
    }

    boolean idle() {
        return active == null && quietTimer == null && queue.isEmpty();
    }

    int queuedRecords() {
        int n = 0;
        for (Pending p : queue) n += p.records.size();
        return n;
    }

    /** Whether a run is active and {@code scope} is its scope (SPEC DI-4). */
    boolean activeIn(ScopeKey scope) {
        return active != null && scope.equals(activeScope);
    }

    /** Starts a run of {@code records}: it carries the summaries of what was dropped before it, once (SPEC DI-3). */
    RunHandle begin(List<InboxRecord> records, Instant now) {
        RunHandle handle = new RunHandle(records, now, List.copyOf(dropped));
        dropped.clear();
        noticed.clear();
        active = handle;
        activeScope = ScopeKey.of(handle.record().message());
        return handle;
    }

    /**
     * The active run ended: a steered message no model call saw runs as a followup, before anything queued after it
     * (SPEC DI-3).
     */
    void end(RunHandle handle) {
        active = null;
        activeScope = null;
        List<InboxRecord> unseen = handle.steer().close();
        for (int i = unseen.size() - 1; i >= 0; i--) queue.add(0, Pending.of(unseen.get(i), false));
    }

    /** What a {@code /stop} of one scope took from the lane (SPEC DI-5). */
    record Stopped(boolean cancelledRun, List<InboxRecord> cancelledQueued) {}

    /** SPEC DI-5: cancels the scope's active run and what of the scope waits, steered or queued. */
    Stopped stop(ScopeKey scope) {
        boolean cancelledRun = false;
        List<InboxRecord> cancelled = new ArrayList<>();
        if (activeIn(scope)) {
            cancelled.addAll(
                    active.steer().removeIf(q -> ScopeKey.of(q.message()).equals(scope)));
            active.cancel().cancel(RunHandle.REASON_STOP);
            cancelledRun = true;
        }
        for (Pending p : queue) {
            if (p.scope.equals(scope)) cancelled.addAll(p.records);
        }
        queue.removeIf(p -> p.scope.equals(scope));
        return new Stopped(cancelledRun, cancelled);
    }

    boolean isQueued(InboxRecord r) {
        for (Pending p : queue) {
            for (InboxRecord q : p.records) if (q.id() == r.id()) return true;
        }
        return false;
    }

    /** SPEC DI-3 interrupt: the newest message runs next, carrying the same scope's queued ones with it. */
    void enqueueMerged(InboxRecord r, ScopeKey scope) {
        for (Pending p : queue) {
            if (p.scope.equals(scope)) {
                p.records.add(r);
                return;
            }
        }
        queue.add(0, Pending.of(r, false));
    }

    /** SPEC DI-3 collect: joins the waiting batch of the same thread, or starts one. Returns the batch. */
    Pending enqueueCollected(InboxRecord r) {
        for (Pending p : queue) {
            if (p.collect && p.sameThread(r)) {
                p.records.add(r);
                return p;
            }
        }
        Pending p = Pending.of(r, true);
        queue.add(p);
        return p;
    }

    /** Removes and returns the oldest waiting record. */
    InboxRecord removeOldest() {
        Pending head = queue.get(0);
        InboxRecord r = head.records.remove(0);
        if (head.records.isEmpty()) queue.remove(0);
        return r;
    }

    /** Removes one record wherever it waits. */
    void remove(InboxRecord r) {
        for (int i = 0; i < queue.size(); i++) {
            Pending p = queue.get(i);
            if (p.records.removeIf(q -> q.id() == r.id())) {
                if (p.records.isEmpty()) queue.remove(i);
                return;
            }
        }
    }
}
