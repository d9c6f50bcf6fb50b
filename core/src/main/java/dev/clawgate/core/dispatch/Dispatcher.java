package dev.clawgate.core.dispatch;

import dev.clawgate.core.config.QueueMode;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes committed inbox records off the bounded bus and runs each turn on its own virtual
 * thread (SPEC DI-1, DI-2): at most {@code maxInFlight} runs at once, at most one per session;
 * a message for a busy session waits in that session's lane as its queue mode says (DI-3, DI-4);
 * {@code /stop} acts at once (DI-5); every run has a time budget (DI-6).
 */
public final class Dispatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** What the dispatcher needs decided about a record, supplied by the wiring. */
    public record Policy(
            Function<InboxRecord, QueueMode> queueMode,
            Predicate<InboxRecord> isStopCommand,
            Predicate<InboxRecord> requestResponse,
            Supplier<Duration> turnBudget,
            int queueCap) {}

    private final Store store;
    private final TurnRunner runner;
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
    private volatile boolean closing;

    public Dispatcher(Store store, TurnRunner runner, StopHandler stopHandler, Policy policy, int busCapacity,
                      int maxInFlight, Clock clock) {
        this.store = store;
        this.runner = runner;
        this.stopHandler = stopHandler;
        this.policy = policy;
        this.clock = clock;
        this.bus = new ArrayBlockingQueue<>(busCapacity);
        this.inFlight = new Semaphore(maxInFlight, true);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "clawgate-turn-timer");
            t.setDaemon(true);
            return t;
        });
        this.loop = Thread.ofPlatform().name("clawgate-dispatcher").daemon(true).unstarted(this::drainBus);
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
     * that already ran twice fails, one older than {@code maxAge} expires. Only records {@code ours}
     * accepts are touched: those of channels this process runs. Returns how many were re-queued.
     */
    public int recover(Duration maxAge, Predicate<InboxRecord> ours) throws InterruptedException {
        int requeued = 0;
        for (InboxRecord r : store.unfinishedInbox()) {
            if (!ours.test(r)) continue;
            if (r.attempts() >= 2) {
                store.markInbox(r.id(), InboxState.FAILED, "interrupted twice; not run again");
            } else if (r.message().timestamp().isBefore(clock.instant().minus(maxAge))) {
                store.markInbox(r.id(), InboxState.EXPIRED, "older than inbox.max_age at restart");
            } else {
                submit(r);
                requeued++;
            }
        }
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

    private void route(InboxRecord r) {
        if (policy.isStopCommand().test(r)) {
            stop(r);
            return;
        }
        lock.lock();
        try {
            SessionLane lane = lanes.computeIfAbsent(r.session(), SessionLane::new);
            if (lane.active == null) {
                startLocked(lane, List.of(r));
                return;
            }
            ScopeKey scope = ScopeKey.of(r.message());
            QueueMode mode = policy.requestResponse().test(r) ? QueueMode.FOLLOWUP : policy.queueMode().apply(r);
            boolean sameScope = scope.equals(lane.activeScope);
            if (mode == QueueMode.INTERRUPT && sameScope) {
                lane.active.cancel().cancel(RunHandle.REASON_INTERRUPT);
                lane.enqueueMerged(r, scope);
            } else {
                // steer and collect arrive with the inbound work; until then they wait as followups (SPEC DI-3)
                lane.queue.add(new Pending(scope, new ArrayList<>(List.of(r))));
            }
            enforceCapLocked(lane);
        } finally {
            lock.unlock();
        }
    }

    private void enforceCapLocked(SessionLane lane) {
        while (lane.queue.size() > policy.queueCap()) {
            Pending dropped = lane.queue.remove(0);
            for (InboxRecord d : dropped.records) {
                store.markInbox(d.id(), InboxState.DROPPED_BY_QUEUE, "session queue over cap " + policy.queueCap());
            }
            log.warn("session {}: queue over cap {}, dropped the oldest queued message", lane.key.display(), policy.queueCap());
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
                    lane.active.cancel().cancel(RunHandle.REASON_STOP);
                    cancelledRun = true;
                }
                lane.queue.removeIf(p -> {
                    if (!p.scope.equals(scope)) return false;
                    cancelledQueued.addAll(p.records);
                    return true;
                });
            }
        } finally {
            lock.unlock();
        }
        for (InboxRecord q : cancelledQueued) store.markInbox(q.id(), InboxState.CANCELLED, RunHandle.REASON_STOP);
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
        RunHandle handle = new RunHandle(records, clock.instant());
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
            finished(lane);
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

    private void finished(SessionLane lane) {
        lock.lock();
        try {
            lane.active = null;
            lane.activeScope = null;
            if (closing) return;
            if (!lane.queue.isEmpty()) {
                startLocked(lane, lane.queue.remove(0).records);
            } else {
                lanes.remove(lane.key);
            }
        } finally {
            lock.unlock();
        }
    }

    /** What {@code /status} shows about a session. */
    public record SessionStatus(boolean running, int queued) {}

    public SessionStatus status(SessionKey key) {
        lock.lock();
        try {
            SessionLane lane = lanes.get(key);
            return lane == null ? new SessionStatus(false, 0) : new SessionStatus(lane.active != null, lane.queue.size());
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

    /** Whether every submitted record has been taken and no run is active or queued. */
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
            lanes.values().forEach(l -> Optional.ofNullable(l.active).ifPresent(h -> h.cancel().cancel(RunHandle.REASON_SHUTDOWN)));
        } finally {
            lock.unlock();
        }
        timer.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /** Records waiting for one run; several only when merged (interrupt now; collect and debounce later). */
    private record Pending(ScopeKey scope, List<InboxRecord> records) {}

    private static final class SessionLane {
        final SessionKey key;
        final List<Pending> queue = new ArrayList<>();
        RunHandle active;
        ScopeKey activeScope;

        SessionLane(SessionKey key) {
            this.key = key;
        }

        /** SPEC DI-3 interrupt: the newest message runs next, carrying the same scope's queued ones with it. */
        void enqueueMerged(InboxRecord r, ScopeKey scope) {
            for (Pending p : queue) {
                if (p.scope.equals(scope)) {
                    p.records.add(r);
                    return;
                }
            }
            queue.add(0, new Pending(scope, new ArrayList<>(List.of(r))));
        }
    }
}
