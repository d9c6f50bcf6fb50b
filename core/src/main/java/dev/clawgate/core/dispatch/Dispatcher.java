package dev.clawgate.core.dispatch;

import dev.clawgate.core.inbound.Debouncer;
import dev.clawgate.core.inbound.InboundChecks;
import dev.clawgate.core.inbound.Scheduler;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.run.RunHandle;
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
 * Takes committed inbox records off the bounded bus and runs each turn on its own virtual
 * thread (SPEC DI-1, DI-2): at most {@code maxInFlight} runs at once, at most one per session;
 * a message for a busy session is steered, queued, collected or interrupts as its queue mode
 * says (DI-3, DI-4); {@code /stop} acts at once (DI-5); every run has a time budget (DI-6).
 *
 * <p>This class admits and routes; the parts live beside it: {@link Bus} (the bounded bus and its
 * loop), {@link Lanes} (one lane per session, with {@link QueueModes} and {@link QueueCap} deciding
 * what a busy one does), {@link InFlight} (the run threads, their limit and {@link TurnBudget}).
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
    private final Receipts receipts;
    private final StopHandler stopHandler;
    private final Policy policy;
    private final Clock clock;
    private final Notices notices;
    private final ScheduledExecutorService timer;
    private final Bus bus;
    private final InFlight inFlight;
    private final Lanes lanes;
    private final Debouncer debouncer;

    public Dispatcher(Store store, TurnRunner runner, StopHandler stopHandler, Policy policy, int busCapacity,
                      int maxInFlight, Clock clock) {
        this.store = store;
        this.receipts = new Receipts(store, runner);
        this.stopHandler = stopHandler;
        this.policy = policy;
        this.clock = clock;
        this.notices = new Notices(policy.notices());
        this.timer = Scheduler.daemonTimer("clawgate-dispatch-timer");
        this.bus = new Bus(busCapacity, this::route);
        this.inFlight = new InFlight(store, runner, receipts, new TurnBudget(timer, policy.turnBudget()), maxInFlight);
        this.lanes = new Lanes(store, receipts, inFlight, notices, policy, timer, clock);
        this.debouncer = new Debouncer(policy.debounceMs(), Scheduler.using(timer), lanes::enqueue);
    }

    public Dispatcher start() {
        bus.start();
        return this;
    }

    /** Puts a committed record on the bus; blocks while the bus is full (back-pressure, SPEC DI-1). */
    public void submit(InboxRecord record) throws InterruptedException {
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

    /** Checks a record's admission, then hands it to its session lane. */
    public void route(InboxRecord r) {
        Optional<String> problem = InboundChecks.problem(r.message());
        if (problem.isPresent()) {
            store.markInbox(r.id(), InboxState.FAILED, problem.get());
            notices.later(r, "⚠️ I could not take that message: " + problem.get() + ".");
            return;
        }
        switch (policy.admission().check(r)) {
            case Admission.Deny d -> {
                store.markInbox(r.id(), InboxState.DENIED, d.reason());
                log.info("{} message from {} denied: {}", r.message().channel(), r.message().sender(), d.reason());
                if (d.reply() != null) notices.later(r, d.reply());
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

    /** SPEC DI-5: {@code /stop} acts at once, past the debouncer and the queue. */
    private void stop(InboxRecord r) {
        SessionLane.Stopped stopped = lanes.stop(r);
        List<InboxRecord> cancelledQueued = stopped.cancelledQueued();
        for (InboxRecord q : cancelledQueued) store.markInbox(q.id(), InboxState.CANCELLED, RunHandle.REASON_STOP);
        // SPEC RP-5, DI-5: their receipts settle now, not when a later turn of the chat ends
        receipts.settle(cancelledQueued);
        Thread.ofVirtual().name("clawgate-stop-" + r.id()).start(() -> {
            try {
                stopHandler.stopped(r, stopped.cancelledRun(), cancelledQueued.size());
            } catch (RuntimeException e) {
                log.warn("answering /stop {} failed: {}", r.id(), e.toString());
            }
        });
    }

    /** What {@code /status} shows about a session. */
    public record SessionStatus(boolean running, int queued) {}

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
     * Stops taking work and waits up to {@code grace} for active runs; runs still active are
     * cancelled as a shutdown, which leaves their records unfinished so a restart runs them again.
     */
    public void close(Duration grace) {
        lanes.closing();
        // debounced messages still waiting stay received in the inbox: the restart runs them
        bus.close();
        long deadline = System.nanoTime() + grace.toNanos();
        while (activeRuns() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        lanes.cancelAll();
        timer.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
