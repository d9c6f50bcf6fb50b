package dev.clawgate.core.dispatch;

import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.inbound.Debouncer;
import dev.clawgate.core.inbound.InboundChecks;
import dev.clawgate.core.inbound.Scheduler;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes committed inbox records off the bounded bus and runs each turn on its own virtual
 * thread (SPEC DI-1, DI-2): at most {@code maxInFlight} runs at once, at most one per session;
 * a message for a busy session is steered, queued, collected or interrupts as its queue mode
 * says (DI-3, DI-4); {@code /stop} acts at once (DI-5); every run has a time budget (DI-6).
 */
public final class Dispatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    static final String QUEUED_NOTICE = "⏳ I'm still working on your previous message; I'll get to this one next.";

    /**
     * What the dispatcher needs decided about a record, supplied by the wiring.
     *
     * @param notices best-effort notices to a record's sender ("queued", "not queued")
     */
    public record Policy(
            Function<InboxRecord, QueuePolicy> queue,
            Predicate<InboxRecord> isStopCommand,
            Predicate<InboxRecord> requestResponse,
            Supplier<Duration> turnBudget,
            BiConsumer<InboxRecord, String> notices,
            Duration queuedNoticeAfter,
            Admission admission,
            Function<String, Long> debounceMs) {
        /** Without access control or debouncing: owner-only deployments, tests. */
        public Policy(Function<InboxRecord, QueuePolicy> queue, Predicate<InboxRecord> isStopCommand,
                      Predicate<InboxRecord> requestResponse, Supplier<Duration> turnBudget,
                      BiConsumer<InboxRecord, String> notices, Duration queuedNoticeAfter) {
            this(queue, isStopCommand, requestResponse, turnBudget, notices, queuedNoticeAfter, Admission.ALL, channel -> 0L);
        }

        public Policy(Function<InboxRecord, QueuePolicy> queue, Predicate<InboxRecord> isStopCommand,
                      Predicate<InboxRecord> requestResponse, Supplier<Duration> turnBudget,
                      BiConsumer<InboxRecord, String> notices, Duration queuedNoticeAfter, Admission admission) {
            this(queue, isStopCommand, requestResponse, turnBudget, notices, queuedNoticeAfter, admission, channel -> 0L);
        }
    }

    private final Store store;
    private final TurnRunner runner;
    private final Receipts receipts;
    private final StopHandler stopHandler;
    private final Policy policy;
    private final Clock clock;
    private final BlockingQueue<InboxRecord> bus;
    private final Semaphore inFlight;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<SessionKey, SessionLane> lanes = new HashMap<>();
    private final ScheduledExecutorService timer;
    private final AtomicLong runsStarted = new AtomicLong();
    private final Thread loop;
    private final Debouncer debouncer;
    private volatile boolean closing;

    public Dispatcher(Store store, TurnRunner runner, StopHandler stopHandler, Policy policy, int busCapacity,
                      int maxInFlight, Clock clock) {
        this.store = store;
        this.runner = runner;
        this.receipts = new Receipts(store, runner);
        this.stopHandler = stopHandler;
        this.policy = policy;
        this.clock = clock;
        this.bus = new ArrayBlockingQueue<>(busCapacity);
        this.inFlight = new Semaphore(maxInFlight, true);
        this.timer = Scheduler.daemonTimer("clawgate-dispatch-timer");
        this.loop = Thread.ofPlatform().name("clawgate-dispatcher").daemon(true).unstarted(this::drainBus);
        this.debouncer = new Debouncer(policy.debounceMs(), Scheduler.using(timer), this::enqueue);
    }

    public Dispatcher start() {
        loop.start();
        return this;
    }

    /** Puts a committed record on the bus; blocks while the bus is full (back-pressure, SPEC DI-1). */
    public void submit(InboxRecord record) throws InterruptedException {
        if (closing) throw new IllegalStateException("dispatcher is closed");
        bus.put(record);
    }

    /**
     * Re-queues what a crash left unfinished (SPEC IN-4): in order, at most once more; a record
     * that already ran twice fails, one recorded longer than {@code maxAge} ago expires (the time we
     * recorded it, not the platform's clock, which may be skewed). Only records {@code ours}
     * accepts are touched: those of channels this process runs. Returns how many were re-queued.
     */
    public int recover(Duration maxAge, Predicate<InboxRecord> ours) throws InterruptedException {
        int requeued = 0;
        List<InboxRecord> given = new ArrayList<>();
        for (InboxRecord r : store.unfinishedInbox()) {
            if (!ours.test(r)) continue;
            if (r.attempts() >= 2) {
                store.markInbox(r.id(), InboxState.FAILED, "interrupted twice; not run again");
                given.add(r);
            } else if (r.recordedAt().isBefore(clock.instant().minus(maxAge))) {
                store.markInbox(r.id(), InboxState.EXPIRED, "older than inbox.max_age at restart");
                given.add(r);
            } else {
                submit(r);
                requeued++;
            }
        }
        // SPEC RP-5: a receipt shown before the restart is settled, not left showing
        receipts.settle(given);
        if (requeued > 0) log.info("re-queued {} unfinished inbox records after restart", requeued);
        return requeued;
    }

    private void drainBus() {
        while (!closing) {
            try {
                route(bus.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("dispatcher failed to route a record; it stays unfinished and runs after a restart", e);
            }
        }
    }

    /** Checks a record's admission, then hands it to its session lane. */
    public void route(InboxRecord r) {
        Optional<String> problem = InboundChecks.problem(r.message());
        if (problem.isPresent()) {
            store.markInbox(r.id(), InboxState.FAILED, problem.get());
            notifyLater(r, "⚠️ I could not take that message: " + problem.get() + ".");
            return;
        }
        switch (policy.admission().check(r)) {
            case Admission.Deny d -> {
                store.markInbox(r.id(), InboxState.DENIED, d.reason());
                log.info("{} message from {} denied: {}", r.message().channel(), r.message().sender(), d.reason());
                if (d.reply() != null) notifyLater(r, d.reply());
                return;
            }
            case Admission.Buffer b -> {
                store.markInbox(r.id(), InboxState.BUFFERED, b.reason());
                return;
            }
            case Admission.Admit a -> { }
        }
        if (policy.isStopCommand().test(r)) {
            stop(r);
            return;
        }
        receipts.shown(r);
        debouncer.offer(r);
    }

    /**
     * Hands a batch (one record, or a debounced burst, SPEC IN-2) to its session lane: it starts
     * a run when the session is idle, else it is steered, queued, collected or interrupts (DI-3).
     */
    private void enqueue(List<InboxRecord> batch) {
        InboxRecord r = batch.get(batch.size() - 1);
        List<InboxRecord> dropped = new ArrayList<>();
        lock.lock();
        try {
            SessionLane lane = lanes.computeIfAbsent(r.session(), SessionLane::new);
            if (lane.idle()) {
                startLocked(lane, batch);
                return;
            }
            QueuePolicy qp = policy.requestResponse().test(r) ? QueuePolicy.followup(Integer.MAX_VALUE) : policy.queue().apply(r);
            ScopeKey scope = ScopeKey.of(r.message());
            boolean sameScope = lane.active != null && scope.equals(lane.activeScope);
            switch (qp.mode()) {
                case INTERRUPT -> {
                    if (sameScope) {
                        lane.active.cancel().cancel(RunHandle.REASON_INTERRUPT);
                        for (InboxRecord b : batch) lane.enqueueMerged(b, scope);
                    } else {
                        lane.queue.add(new Pending(scope, r.message().threadId(), false, batch));
                    }
                }
                case STEER -> {
                    List<InboxRecord> rest = new ArrayList<>();
                    for (InboxRecord b : batch) {
                        if (!(sameScope && rest.isEmpty() && lane.active.steer().offer(b, qp.cap()))) rest.add(b);
                    }
                    if (rest.isEmpty()) return;
                    lane.queue.add(new Pending(scope, r.message().threadId(), false, rest));
                }
                case COLLECT -> {
                    Pending collected = null;
                    for (InboxRecord b : batch) collected = lane.enqueueCollected(b);
                    if (lane.quietTimer != null && lane.queue.get(0) == collected) scheduleQuietLocked(lane, qp.quietWindow());
                }
                case FOLLOWUP -> lane.queue.add(new Pending(scope, r.message().threadId(), false, batch));
            }
            if (!enforceCapLocked(lane, qp, r, dropped)) return;
            scheduleQueuedNotice(lane, r);
        } finally {
            lock.unlock();
            receipts.settle(dropped);
        }
    }

    /** SPEC DI-3 cap and drop policy, adding what it drops to {@code dropped}; false when the newest message itself was refused. */
    private boolean enforceCapLocked(SessionLane lane, QueuePolicy qp, InboxRecord newest, List<InboxRecord> dropped) {
        while (lane.queuedRecords() > qp.cap()) {
            if (qp.drop() == DropPolicy.NEW) {
                lane.remove(newest);
                store.markInbox(newest.id(), InboxState.DROPPED_BY_QUEUE, "queue full (cap " + qp.cap() + "); newest refused");
                dropped.add(newest);
                notifyLater(newest, "⚠️ " + qp.cap() + " messages are already waiting, so this one was not queued. Please send it again later.");
                return false;
            }
            InboxRecord oldest = lane.removeOldest();
            String summary = summary(oldest.message());
            if (qp.drop() == DropPolicy.SUMMARIZE && lane.dropped.size() < Math.max(qp.cap(), 1)) lane.dropped.add(summary);
            store.markInbox(oldest.id(), InboxState.DROPPED_BY_QUEUE, "queue full (cap " + qp.cap() + "): " + summary);
            dropped.add(oldest);
            log.warn("session {}: queue over cap {}, dropped the oldest waiting message ({})", lane.key.display(), qp.cap(), qp.drop());
        }
        return true;
    }

    static String summary(InboundMessage m) {
        String who = m.senderName() != null ? m.senderName() : m.sender();
        String text = m.text().replaceAll("\\s+", " ").trim();
        if (text.length() > 80) text = text.substring(0, 80) + "…";
        if (text.isEmpty() && !m.attachments().isEmpty()) text = "[" + m.attachments().size() + " attachment(s)]";
        return who + ": " + text;
    }

    /** SPEC DI-3: a sender whose message waits more than a moment is told it is queued, once per run. */
    private void scheduleQueuedNotice(SessionLane lane, InboxRecord r) {
        Duration after = policy.queuedNoticeAfter();
        if (after == null || after.isZero() || after.isNegative() || policy.requestResponse().test(r)) return;
        timer.schedule(() -> {
            boolean tell;
            lock.lock();
            try {
                tell = lane.active != null && lane.isQueued(r) && lane.noticed.add(r.message().sender());
            } finally {
                lock.unlock();
            }
            if (tell) notifyNow(r, QUEUED_NOTICE);
        }, after.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void notifyLater(InboxRecord r, String text) {
        Thread.ofVirtual().name("clawgate-notice-" + r.id()).start(() -> notifyNow(r, text));
    }

    private void notifyNow(InboxRecord r, String text) {
        try {
            policy.notices().accept(r, text);
        } catch (RuntimeException e) {
            log.warn("notice to {} failed: {}", r.message().sender(), e.toString());
        }
    }

    private void stop(InboxRecord r) {
        ScopeKey scope = ScopeKey.of(r.message());
        boolean cancelledRun = false;
        List<InboxRecord> cancelledQueued = new ArrayList<>();
        lock.lock();
        try {
            SessionLane lane = lanes.get(r.session());
            if (lane != null) {
                if (lane.active != null && scope.equals(lane.activeScope)) {
                    cancelledQueued.addAll(lane.active.steer().removeIf(q -> ScopeKey.of(q.message()).equals(scope)));
                    lane.active.cancel().cancel(RunHandle.REASON_STOP);
                    cancelledRun = true;
                }
                for (Pending p : lane.queue) {
                    if (p.scope.equals(scope)) cancelledQueued.addAll(p.records);
                }
                lane.queue.removeIf(p -> p.scope.equals(scope));
                if (lane.active == null) {
                    if (lane.quietTimer != null) lane.quietTimer.cancel(false);
                    lane.quietTimer = null;
                    nextLocked(lane);
                }
            }
        } finally {
            lock.unlock();
        }
        for (InboxRecord q : cancelledQueued) store.markInbox(q.id(), InboxState.CANCELLED, RunHandle.REASON_STOP);
        // SPEC RP-5, DI-5: their receipts settle now, not when a later turn of the chat ends
        receipts.settle(cancelledQueued);
        boolean ranCancel = cancelledRun;
        Thread.ofVirtual().name("clawgate-stop-" + r.id()).start(() -> {
            try {
                stopHandler.stopped(r, ranCancel, cancelledQueued.size());
            } catch (RuntimeException e) {
                log.warn("answering /stop {} failed: {}", r.id(), e.toString());
            }
        });
    }

    private void startLocked(SessionLane lane, List<InboxRecord> records) {
        RunHandle handle = new RunHandle(records, clock.instant(), List.copyOf(lane.dropped));
        lane.dropped.clear();
        lane.noticed.clear();
        lane.active = handle;
        lane.activeScope = ScopeKey.of(handle.record().message());
        runsStarted.incrementAndGet();
        Thread.ofVirtual().name("clawgate-turn-" + handle.record().id()).start(() -> execute(lane, handle));
    }

    private void execute(SessionLane lane, RunHandle handle) {
        ScheduledFuture<?> budget = null;
        boolean acquired = false;
        try {
            inFlight.acquire();
            acquired = true;
            for (InboxRecord r : handle.records()) store.markInbox(r.id(), InboxState.DISPATCHED, null);
            Duration limit = policy.turnBudget().get();
            budget = timer.schedule(() -> handle.cancel().cancel(RunHandle.REASON_TIMEOUT), limit.toMillis(), TimeUnit.MILLISECONDS);
            runner.run(handle);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            log.error("turn {} failed outside the pipeline's error handling", handle.record().id(), e);
            markFailed(handle, e);
        } finally {
            if (budget != null) budget.cancel(false);
            if (acquired) inFlight.release();
            // before the lane frees: a receipt never waits for the next run of its session
            receipts.settleRun(handle);
            finished(lane, handle);
        }
    }

    private void markFailed(RunHandle handle, Throwable e) {
        for (InboxRecord r : handle.records()) {
            try {
                store.markInbox(r.id(), InboxState.FAILED, e.getClass().getSimpleName());
            } catch (RuntimeException storeDown) {
                log.error("could not mark inbox {} failed; it will run again after a restart", r.id(), storeDown);
            }
        }
    }

    private void finished(SessionLane lane, RunHandle handle) {
        lock.lock();
        try {
            lane.active = null;
            lane.activeScope = null;
            // SPEC DI-3: a steered message no model call saw runs as a followup, before anything queued after it
            List<InboxRecord> unseen = handle.steer().close();
            for (int i = unseen.size() - 1; i >= 0; i--) lane.queue.add(0, Pending.of(unseen.get(i), false));
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
            scheduleQuietLocked(lane, policy.queue().apply(head.records.get(head.records.size() - 1)).quietWindow());
        } else {
            lane.queue.remove(0);
            startLocked(lane, head.records);
        }
    }

    private void scheduleQuietLocked(SessionLane lane, Duration window) {
        if (lane.quietTimer != null) lane.quietTimer.cancel(false);
        lane.quietTimer = timer.schedule(() -> {
            lock.lock();
            try {
                lane.quietTimer = null;
                if (lane.active == null && !lane.queue.isEmpty()) startLocked(lane, lane.queue.remove(0).records);
                else if (lane.idle()) lanes.remove(lane.key);
            } finally {
                lock.unlock();
            }
        }, Math.max(0, window.toMillis()), TimeUnit.MILLISECONDS);
    }

    /** What {@code /status} shows about a session. */
    public record SessionStatus(boolean running, int queued) {}

    public SessionStatus status(SessionKey key) {
        lock.lock();
        try {
            SessionLane lane = lanes.get(key);
            return lane == null ? new SessionStatus(false, 0) : new SessionStatus(lane.active != null, lane.queuedRecords());
        } finally {
            lock.unlock();
        }
    }

    /** Runs now active, for readiness and tests. */
    public int activeRuns() {
        lock.lock();
        try {
            return (int) lanes.values().stream().filter(l -> l.active != null).count();
        } finally {
            lock.unlock();
        }
    }

    public long runsStarted() {
        return runsStarted.get();
    }

    public int busDepth() {
        return bus.size();
    }

    /** Whether every submitted record has been taken and no run is active or waiting. */
    public boolean idle() {
        lock.lock();
        try {
            return bus.isEmpty() && lanes.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops taking work and waits up to {@code grace} for active runs; runs still active are
     * cancelled as a shutdown, which leaves their records unfinished so a restart runs them again.
     */
    public void close(Duration grace) {
        closing = true;
        // debounced messages still waiting stay received in the inbox: the restart runs them
        loop.interrupt();
        long deadline = System.nanoTime() + grace.toNanos();
        while (activeRuns() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        lock.lock();
        try {
            for (SessionLane l : lanes.values()) {
                if (l.active != null) l.active.cancel().cancel(RunHandle.REASON_SHUTDOWN);
                if (l.quietTimer != null) l.quietTimer.cancel(false);
            }
        } finally {
            lock.unlock();
        }
        timer.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
