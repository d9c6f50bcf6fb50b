package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.internal.dispatch.QueueCap.Drop;
import dev.clawgate.core.internal.dispatch.QueueCap.Overflow;
import dev.clawgate.core.internal.dispatch.QueueModes.Placement;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session lanes (SPEC DI-2, DI-3): one run per session at a time; a batch for a busy session is placed by its queue
 * mode ({@link QueueModes}) and held to its cap ({@link QueueCap}); an idle lane starts what waits at its head, a
 * collected batch after its quiet window. A lane exists only while it has a run or something waiting. Every lane is
 * touched under one lock.
 */
final class Lanes {
    private static final Logger log = LoggerFactory.getLogger(Lanes.class);
    static final String QUEUED_NOTICE = "⏳ I'm still working on your previous message; I'll get to this one next.";

    private final Store store;
    private final Receipts receipts;
    private final InFlight inFlight;
    private final Notices notices;
    private final Function<InboxRecord, QueuePolicy> queue;
    private final Predicate<InboxRecord> requestResponse;
    private final Duration queuedNoticeAfter;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a run ends: what {@link #awaitNoRuns} waits on instead of polling. */
    private final java.util.concurrent.locks.Condition runEnded = lock.newCondition();

    private final Map<SessionKey, SessionLane> lanes = new HashMap<>();
    private volatile boolean closing;

    Lanes(
            Store store,
            Receipts receipts,
            InFlight inFlight,
            Notices notices,
            Dispatcher.Policy policy,
            ScheduledExecutorService timer,
            Clock clock) {
        this.store = store;
        this.receipts = receipts;
        this.inFlight = inFlight;
        this.notices = notices;
        this.queue = policy.queue();
        this.requestResponse = policy.requestResponse();
        this.queuedNoticeAfter = policy.queuedNoticeAfter();
        this.timer = timer;
        this.clock = clock;
    }

    /**
     * Hands a batch (one record, or a debounced burst, SPEC IN-2) to its session lane: it starts a run when the session
     * is idle, else it is steered, queued, collected or interrupts (DI-3).
     */
    void enqueue(List<InboxRecord> batch) {
        InboxRecord r = batch.get(batch.size() - 1);
        List<InboxRecord> dropped = List.of();
        lock.lock();
        try {
            SessionLane lane = lanes.computeIfAbsent(r.session(), SessionLane::new);
            if (lane.idle()) {
                startLocked(lane, batch);
                return;
            }
            // a request-response caller waits for its own answer: its message is never steered, merged or dropped;
            // nor is a runtime command, which is not text for the model (SPEC RT-1): it runs after the active run
            boolean command = batch.size() == 1
                    && RuntimeCommand.parse(r.message().text()).isPresent();
            QueuePolicy qp =
                    requestResponse.test(r) || command ? QueuePolicy.followup(Integer.MAX_VALUE) : queue.apply(r);
            Placement placed = QueueModes.place(lane, batch, qp);
            if (placed == Placement.STEERED) return;
            if (placed == Placement.COLLECTED_AT_HEAD && lane.quietTimer != null)
                scheduleQuietLocked(lane, qp.quietWindow());
            Overflow overflow = QueueCap.enforce(lane, qp, r);
            dropped = overflow.records();
            for (Drop d : overflow.drops()) {
                store.inbox().mark(d.record().id(), InboxState.DROPPED_BY_QUEUE, d.reason());
                if (!overflow.newestRefused()) {
                    log.warn(
                            "session {}: queue over cap {}, dropped the oldest waiting message ({})",
                            lane.key.display(),
                            qp.cap(),
                            qp.drop());
                }
            }
            if (overflow.newestRefused()) {
                notices.later(r, QueueCap.refusal(qp));
                return;
            }
            scheduleQueuedNotice(lane, r);
        } finally {
            lock.unlock();
            receipts.settle(dropped);
        }
    }

    /** SPEC DI-3: a sender whose message waits more than a moment is told it is queued, once per run. */
    private void scheduleQueuedNotice(SessionLane lane, InboxRecord r) {
        Duration after = queuedNoticeAfter;
        if (after == null || after.isZero() || after.isNegative() || requestResponse.test(r)) return;
        timer.schedule(
                () -> {
                    boolean tell;
                    lock.lock();
                    try {
                        tell = lane.active != null
                                && lane.isQueued(r)
                                && lane.noticed.add(r.message().sender());
                    } finally {
                        lock.unlock();
                    }
                    if (tell) notices.now(r, QUEUED_NOTICE);
                },
                after.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** SPEC DI-5: cancels the active run of {@code r}'s scope and what of the scope waits in its session. */
    SessionLane.Stopped stop(InboxRecord r) {
        ScopeKey scope = ScopeKey.of(r.message());
        lock.lock();
        try {
            SessionLane lane = lanes.get(r.session());
            if (lane == null) return new SessionLane.Stopped(false, List.of());
            SessionLane.Stopped stopped = lane.stop(scope);
            if (lane.active == null) {
                if (lane.quietTimer != null) lane.quietTimer.cancel(false);
                lane.quietTimer = null;
                nextLocked(lane);
            }
            return stopped;
        } finally {
            lock.unlock();
        }
    }

    private void startLocked(SessionLane lane, List<InboxRecord> records) {
        RunHandle handle = lane.begin(records, clock.instant());
        inFlight.launch(handle, () -> finished(lane, handle));
    }

    private void finished(SessionLane lane, RunHandle handle) {
        lock.lock();
        try {
            lane.end(handle);
            runEnded.signalAll();
            if (closing) return;
            nextLocked(lane);
        } finally {
            lock.unlock();
        }
    }

    /** Starts what waits at the head of an idle lane; a collected batch first waits for its quiet window. */
    private void nextLocked(SessionLane lane) {
        if (lane.active != null || lane.quietTimer != null) return;
        if (lane.queue.isEmpty()) {
            lanes.remove(lane.key);
            return;
        }
        Pending head = lane.queue.get(0);
        if (head.collect) {
            scheduleQuietLocked(
                    lane, queue.apply(head.records.get(head.records.size() - 1)).quietWindow());
        } else {
            lane.queue.remove(0);
            startLocked(lane, head.records);
        }
    }

    private void scheduleQuietLocked(SessionLane lane, Duration window) {
        if (lane.quietTimer != null) lane.quietTimer.cancel(false);
        lane.quietTimer = timer.schedule(
                () -> {
                    lock.lock();
                    try {
                        lane.quietTimer = null;
                        if (lane.active == null && !lane.queue.isEmpty())
                            startLocked(lane, lane.queue.remove(0).records);
                        else if (lane.idle()) lanes.remove(lane.key);
                    } finally {
                        lock.unlock();
                    }
                },
                Math.max(0, window.toMillis()),
                TimeUnit.MILLISECONDS);
    }

    SessionStatus status(SessionKey key) {
        lock.lock();
        try {
            SessionLane lane = lanes.get(key);
            if (lane == null) return new SessionStatus(false, 0);
            RunHandle active = lane.active;
            return active == null
                    ? new SessionStatus(false, lane.queuedRecords())
                    : new SessionStatus(
                            true,
                            lane.queuedRecords(),
                            active.startedAt(),
                            active.runningTool().orElse(null));
        } finally {
            lock.unlock();
        }
    }

    int activeRuns() {
        lock.lock();
        try {
            return activeRunsLocked();
        } finally {
            lock.unlock();
        }
    }

    private int activeRunsLocked() {
        return (int) lanes.values().stream().filter(l -> l.active != null).count();
    }

    /** Waits until no run is active or {@code grace} passed; true when none is. */
    boolean awaitNoRuns(Duration grace) throws InterruptedException {
        long left = grace.toNanos();
        lock.lock();
        try {
            while (activeRunsLocked() > 0) {
                if (left <= 0) return false;
                left = runEnded.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return lanes.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** No run starts any more: a run that ends leaves its lane as it is. */
    void closing() {
        closing = true;
    }

    /** Cancels the active runs as a shutdown (their records stay unfinished for the restart) and the quiet windows. */
    void cancelAll() {
        lock.lock();
        try {
            for (SessionLane l : lanes.values()) {
                if (l.active != null) l.active.cancel().cancel(RunHandle.REASON_SHUTDOWN);
                if (l.quietTimer != null) l.quietTimer.cancel(false);
            }
        } finally {
            lock.unlock();
        }
    }
}
