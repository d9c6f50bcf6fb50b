package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.command.RuntimeCommand;
import dev.clawgate.core.internal.run.Dispatching;
import dev.clawgate.core.internal.run.InboundChecks;
import dev.clawgate.core.internal.run.ReceiptListener;
import dev.clawgate.core.internal.run.SessionStatus;
import dev.clawgate.core.internal.run.StopHandler;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.run.Scheduler;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes committed inbox records off the bounded bus and runs each turn on its own virtual thread (SPEC DI-1, DI-2): at
 * most {@code maxInFlight} runs at once, at most one per session; a message for a busy session is steered, queued,
 * collected or interrupts as its queue mode says (DI-3, DI-4); {@code /stop} acts at once (DI-5); every run has a time
 * budget (DI-6).
 *
 * <p>This class admits and routes; the parts live beside it: {@link Bus} (the bounded bus and its loop), {@link Lanes}
 * (one lane per session, with {@link QueueModes} and {@link QueueCap} deciding what a busy one does), {@link InFlight}
 * (the run threads, their limit and {@link TurnBudget}).
 */
public final class Dispatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

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
        public Policy(
                Function<InboxRecord, QueuePolicy> queue,
                Predicate<InboxRecord> isStopCommand,
                Predicate<InboxRecord> requestResponse,
                Supplier<Duration> turnBudget,
                BiConsumer<InboxRecord, String> notices,
                Duration queuedNoticeAfter) {
            this(
                    queue,
                    isStopCommand,
                    requestResponse,
                    turnBudget,
                    notices,
                    queuedNoticeAfter,
                    Admission.ALL,
                    channel -> 0L);
        }

        public Policy(
                Function<InboxRecord, QueuePolicy> queue,
                Predicate<InboxRecord> isStopCommand,
                Predicate<InboxRecord> requestResponse,
                Supplier<Duration> turnBudget,
                BiConsumer<InboxRecord, String> notices,
                Duration queuedNoticeAfter,
                Admission admission) {
            this(
                    queue,
                    isStopCommand,
                    requestResponse,
                    turnBudget,
                    notices,
                    queuedNoticeAfter,
                    admission,
                    channel -> 0L);
        }

        /** A builder naming each part; see {@link PolicyBuilder} for the defaults. */
        public static PolicyBuilder builder() {
            return new PolicyBuilder();
        }
    }

    /** {@code /status} answers running beside busy sessions at once, at most (OP-7: bounded). */
    static final int MAX_STATUS_AT_ONCE = 8;

    private final Store store;
    private final TurnRunner runner;
    private final boolean runnerDispatches;
    private final java.util.concurrent.Semaphore statusSlots = new java.util.concurrent.Semaphore(MAX_STATUS_AT_ONCE);
    private final Receipts receipts;
    private final StopHandler stopHandler;
    private final Policy policy;
    private final Clock clock;
    private final Notices notices;
    private final ScheduledExecutorService timer;
    private final Bus bus;
    private final InFlight inFlight;
    /** Answers to /stop, off the caller's thread (it may hold the dispatcher's lock); bounded like all else. */
    private final dev.clawgate.core.run.BackgroundWork stopReplies =
            new dev.clawgate.core.run.BackgroundWork("clawgate-stop", 4, 256);

    private final Lanes lanes;
    private final Debouncer debouncer;
    private volatile SessionOwnership ownership = SessionOwnership.LOCAL;

    /** A dispatcher that marks records dispatched itself and shows no receipts. */
    public Dispatcher(
            Store store,
            TurnRunner runner,
            StopHandler stopHandler,
            Policy policy,
            int busCapacity,
            int maxInFlight,
            Clock clock) {
        this(
                store,
                runner,
                Dispatching.BY_DISPATCHER,
                ReceiptListener.NONE,
                stopHandler,
                policy,
                busCapacity,
                maxInFlight,
                clock);
    }

    /** @param receiptListener told of each admitted record and of its final state (SPEC RP-5) */
    public Dispatcher(
            Store store,
            TurnRunner runner,
            Dispatching dispatching,
            ReceiptListener receiptListener,
            StopHandler stopHandler,
            Policy policy,
            int busCapacity,
            int maxInFlight,
            Clock clock) {
        this.store = store;
        this.runner = runner;
        this.runnerDispatches = dispatching == Dispatching.BY_RUNNER;
        this.receipts = new Receipts(store, receiptListener);
        this.stopHandler = stopHandler;
        this.policy = policy;
        this.clock = clock;
        this.notices = new Notices(policy.notices());
        this.timer = Scheduler.daemonTimer("clawgate-dispatch-timer");
        this.bus = new Bus(busCapacity, this::route);
        this.inFlight = new InFlight(
                store, runner, runnerDispatches, receipts, new TurnBudget(timer, policy.turnBudget()), maxInFlight);
        this.lanes = new Lanes(store, receipts, inFlight, notices, policy, timer, clock);
        this.debouncer = new Debouncer(policy.debounceMs(), Scheduler.using(timer), lanes::enqueue);
    }

    public Dispatcher start() {
        bus.start();
        return this;
    }

    /**
     * Puts a committed record on the bus, or hands it to the node running its session (SPEC OP-2); blocks while the bus
     * is full (back-pressure, SPEC DI-1).
     */
    public void submit(InboxRecord record) throws InterruptedException {
        SessionOwnership decides = ownership;
        if (decides == SessionOwnership.LOCAL) {
            bus.put(record);
            return;
        }
        for (InboxRecord r : decides.claim(record)) bus.put(r);
    }

    /** Puts a record on this node's bus, whoever else might run its session: one handed here, one taken over. */
    public void submitHere(InboxRecord record) throws InterruptedException {
        bus.put(record);
    }

    /** Who runs each session (cluster mode); {@link SessionOwnership#LOCAL} until set. */
    public Dispatcher ownership(SessionOwnership decides) {
        this.ownership = java.util.Objects.requireNonNull(decides, "decides");
        return this;
    }

    /**
     * Re-queues what a crash left unfinished (SPEC IN-4): in order, at most once more; a record that already ran twice
     * fails, one recorded longer than {@code maxAge} ago expires (the time we recorded it, not the platform's clock,
     * which may be skewed). Only records {@code ours} accepts are touched: those of channels this process runs. Returns
     * how many were re-queued.
     */
    public int recover(Duration maxAge, Predicate<InboxRecord> ours) throws InterruptedException {
        int requeued = rerun(store.inbox().unfinished().stream().filter(ours).toList(), maxAge);
        if (requeued > 0) log.info("re-queued {} unfinished inbox records after restart", requeued);
        return requeued;
    }

    /**
     * Re-queues {@code unfinished} records, oldest first, by {@link #recover}'s rules: what a crash (or a dead cluster
     * node, SPEC OP-2) left runs at most once more. Returns how many were re-queued.
     */
    public int rerun(List<InboxRecord> unfinished, Duration maxAge) throws InterruptedException {
        int requeued = 0;
        List<InboxRecord> given = new ArrayList<>();
        for (InboxRecord r : unfinished) {
            if (r.attempts() >= 2) {
                store.inbox().mark(r.id(), InboxState.FAILED, "interrupted twice; not run again");
                given.add(r);
            } else if (r.recordedAt().isBefore(clock.instant().minus(maxAge))) {
                store.inbox().mark(r.id(), InboxState.EXPIRED, "older than inbox.max_age at restart");
                given.add(r);
            } else {
                submitHere(r);
                requeued++;
            }
        }
        // SPEC RP-5: a receipt shown before the restart is settled, not left showing
        receipts.settle(given);
        return requeued;
    }

    /**
     * Fails a record the inbox refused (SPEC OP-10) and tells its sender why, through the channel's adapter; a
     * request/response channel answers the refusal on its own connection instead.
     */
    public void refuse(InboxRecord r, String reason) {
        store.inbox().mark(r.id(), InboxState.FAILED, reason);
        if (!policy.requestResponse().test(r)) notices.later(r, "⚠️ I could not take that message: " + reason + ".");
    }

    /** Checks a record's admission, then hands it to its session lane. */
    public void route(InboxRecord r) {
        Optional<String> problem = InboundChecks.problem(r.message());
        if (problem.isPresent()) {
            store.inbox().mark(r.id(), InboxState.FAILED, problem.get());
            notices.later(r, "⚠️ I could not take that message: " + problem.get() + ".");
            return;
        }
        switch (policy.admission().check(r)) {
            case Admission.Deny d -> {
                store.inbox().mark(r.id(), InboxState.DENIED, d.reason());
                log.info(
                        "{} message from {} denied: {}",
                        r.message().channel(),
                        r.message().sender(),
                        d.reason());
                if (d.reply() != null) notices.later(r, d.reply());
                return;
            }
            case Admission.Buffer b -> {
                store.inbox().mark(r.id(), InboxState.BUFFERED, b.reason());
                return;
            }
            case Admission.Admit a -> {}
        }
        if (policy.isStopCommand().test(r)) {
            stop(r);
            return;
        }
        if (statusNow(r)) return;
        receipts.shown(r);
        debouncer.offer(r);
    }

    /**
     * SPEC RT-1 ("handled without a model call and return at once"): a {@code /status} for a session whose run is busy
     * (say a tool that does not end on its own) is answered now, beside the run, naming what it waits on; it reads
     * only. Request-response channels keep their order; past {@link #MAX_STATUS_AT_ONCE} a flood of them waits in the
     * lane like any message.
     */
    private boolean statusNow(InboxRecord r) {
        if (!(RuntimeCommand.parse(r.message().text()).orElse(null) instanceof RuntimeCommand.Status)) return false;
        if (policy.requestResponse().test(r) || !lanes.status(r.session()).running()) return false;
        if (!statusSlots.tryAcquire()) return false;
        receipts.shown(r);
        RunHandle handle = new RunHandle(List.of(r), clock.instant());
        Thread.ofVirtual().name("clawgate-status-" + r.id()).start(() -> {
            try {
                if (!runnerDispatches) store.inbox().mark(r.id(), InboxState.DISPATCHED, null);
                runner.run(handle);
            } catch (Exception e) {
                log.warn("answering /status {} failed: {}", r.id(), e.toString());
                store.inbox().mark(r.id(), InboxState.FAILED, e.getClass().getSimpleName());
            } finally {
                statusSlots.release();
                receipts.settleRun(handle);
            }
        });
        return true;
    }

    /** SPEC DI-5: {@code /stop} acts at once, past the debouncer and the queue. */
    private void stop(InboxRecord r) {
        SessionLane.Stopped stopped = lanes.stop(r);
        List<InboxRecord> cancelledQueued = stopped.cancelledQueued();
        for (InboxRecord q : cancelledQueued) store.inbox().mark(q.id(), InboxState.CANCELLED, RunHandle.REASON_STOP);
        // SPEC RP-5, DI-5: their receipts settle now, not when a later turn of the chat ends
        receipts.settle(cancelledQueued);
        stopReplies.execute(() -> {
            try {
                stopHandler.stopped(r, stopped.cancelledRun(), cancelledQueued.size());
            } catch (RuntimeException e) {
                log.warn("answering /stop {} failed: {}", r.id(), e.toString());
            }
        });
    }

    public SessionStatus status(SessionKey key) {
        return lanes.status(key);
    }

    /** Runs now active, for readiness and tests. */
    public int activeRuns() {
        return lanes.activeRuns();
    }

    public long runsStarted() {
        return inFlight.started();
    }

    public int busDepth() {
        return bus.depth();
    }

    /** Whether every submitted record has been taken and no run is active or waiting. */
    public boolean idle() {
        return bus.isEmpty() && lanes.isEmpty();
    }

    /**
     * Stops taking work and waits up to {@code grace} for active runs; runs still active are cancelled as a shutdown,
     * which leaves their records unfinished so a restart runs them again.
     */
    public void close(Duration grace) {
        lanes.closing();
        // debounced messages still waiting stay received in the inbox: the restart runs them
        bus.close();
        try {
            lanes.awaitNoRuns(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lanes.cancelAll();
        timer.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
