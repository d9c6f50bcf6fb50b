package dev.clawgate.core.internal.dispatch;

import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.run.RunHandle;
import dev.clawgate.core.store.InboxRecord;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.Store;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each turn on its own virtual thread (SPEC DI-1), at most {@code maxInFlight} at once (DI-2), each within its
 * time budget (DI-6). A turn that throws past the pipeline's own error handling fails its records; either way its
 * receipts settle before its lane frees (RP-5).
 */
final class InFlight {
    private static final Logger log = LoggerFactory.getLogger(InFlight.class);

    private final Store store;
    private final TurnRunner runner;
    private final Receipts receipts;
    private final TurnBudget budget;
    private final Semaphore slots;
    private final AtomicLong started = new AtomicLong();

    private final boolean runnerDispatches;

    InFlight(
            Store store,
            TurnRunner runner,
            boolean runnerDispatches,
            Receipts receipts,
            TurnBudget budget,
            int maxInFlight) {
        this.runnerDispatches = runnerDispatches;
        this.store = store;
        this.runner = runner;
        this.receipts = receipts;
        this.budget = budget;
        this.slots = new Semaphore(maxInFlight, true);
    }

    /** Starts {@code handle}'s run; {@code whenDone} runs on its thread once it ended and its receipts settled. */
    void launch(RunHandle handle, Runnable whenDone) {
        started.incrementAndGet();
        Thread.ofVirtual().name("clawgate-turn-" + handle.record().id()).start(() -> execute(handle, whenDone));
    }

    long started() {
        return started.get();
    }

    private void execute(RunHandle handle, Runnable whenDone) {
        ScheduledFuture<?> timeout = null;
        boolean acquired = false;
        try {
            slots.acquire();
            acquired = true;
            if (!runnerDispatches) {
                for (InboxRecord r : handle.records()) store.inbox().mark(r.id(), InboxState.DISPATCHED, null);
            }
            timeout = budget.arm(handle);
            runner.run(handle);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            log.error(
                    "turn {} failed outside the pipeline's error handling",
                    handle.record().id(),
                    e);
            markFailed(handle, e);
        } finally {
            if (timeout != null) timeout.cancel(false);
            if (acquired) slots.release();
            // before the lane frees: a receipt never waits for the next run of its session
            receipts.settleRun(handle);
            whenDone.run();
        }
    }

    private void markFailed(RunHandle handle, Throwable e) {
        for (InboxRecord r : handle.records()) {
            try {
                store.inbox().mark(r.id(), InboxState.FAILED, e.getClass().getSimpleName());
            } catch (RuntimeException storeDown) {
                log.error("could not mark inbox {} failed; it will run again after a restart", r.id(), storeDown);
            }
        }
    }
}
