package dev.clawgate.core.internal.outbound;

import dev.clawgate.core.run.CancelToken;

/**
 * The deliveries of one run (SPEC OUT-11), from {@link Outbox#watch}: the run's abort (a /stop, an interrupt, its time
 * budget) reaches their platform sends and media loading through {@link #cancel()}, and the run's entries still waiting
 * in the outbox (a retry) are suppressed as {@code run_cancelled}. A shutdown is not an abort: what the run committed
 * stays pending for the restart. Close it when the run ends.
 */
public final class RunDeliveries implements AutoCloseable {
    private final long turnId;
    private final CancelToken cancel;
    private final Runnable release;

    RunDeliveries(long turnId, CancelToken cancel, Runnable release) {
        this.turnId = turnId;
        this.cancel = cancel;
        this.release = release;
    }

    public long turnId() {
        return turnId;
    }

    /** Cancelled when the run is aborted (never by a shutdown): the token the run's sends go with. */
    public CancelToken cancel() {
        return cancel;
    }

    @Override
    public void close() {
        release.run();
    }
}
