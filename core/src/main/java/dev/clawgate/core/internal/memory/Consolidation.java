package dev.clawgate.core.internal.memory;

import dev.clawgate.core.config.MemorySettings;
import dev.clawgate.core.internal.run.TurnRunner;
import dev.clawgate.core.provider.ProviderException;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consolidation after a turn, off the reply path (SPEC ME-6): fire and forget, bounded. {@link #after} wraps the turn
 * runner so that, once a run has returned (its final reply committed and handed to the channel), the turn is offered to
 * a queue of at most {@code capacity}; one worker thread runs the {@link Consolidator} on each. A full queue drops the
 * turn, counts it and says so in the log (at most once a minute): a turn never waits for consolidation, and
 * consolidation never holds a turn's reply.
 */
public final class Consolidation implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Consolidation.class);
    static final Duration DROP_LOG_INTERVAL = Duration.ofMinutes(1);

    private final Consolidator consolidator;
    private final Supplier<MemorySettings> settings;
    private final Clock clock;
    private final BlockingQueue<FinishedTurn> queue;
    private final CancelToken cancel = new CancelToken();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Instant> lastDropLog = new AtomicReference<>(Instant.MIN);
    private volatile boolean closed;
    private volatile Runnable followUp = () -> {};
    private Thread worker;

    /** How many turns were queued, dropped for a full queue, consolidated, and failed so far. */
    public record Stats(long queued, long dropped, long done, long failed, int waiting) {}

    public Consolidation(Consolidator consolidator, Supplier<MemorySettings> settings, int capacity, Clock clock) {
        if (capacity < 1)
            throw new IllegalArgumentException("memory.consolidation_queue must be at least 1, got " + capacity);
        this.consolidator = consolidator;
        this.settings = settings;
        this.clock = clock;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    /**
     * Runs {@code step} on the worker after each turn, whatever its consolidation did: the memory indexer embeds the
     * turn's new memories there (SPEC ME-5), off the reply path.
     */
    public Consolidation followedBy(Runnable step) {
        this.followUp = java.util.Objects.requireNonNull(step, "step");
        return this;
    }

    public Consolidation start() {
        worker = Thread.ofVirtual().name("memory-consolidation").start(this::work);
        return this;
    }

    /** {@code turns}, followed by an {@link #offer} of each turn that ran to its end. */
    public TurnRunner after(TurnRunner turns) {
        return turns.andThen(run -> offer(FinishedTurn.of(run)));
    }

    /**
     * Queues {@code turn} without waiting; false when consolidation is off, closed, or the queue is full (then
     * counted).
     */
    public boolean offer(FinishedTurn turn) {
        MemorySettings cfg = settings.get();
        if (closed || !cfg.enabled() || cfg.consolidation() == ConsolidationMode.OFF) return false;
        if (queue.offer(turn)) {
            queued.incrementAndGet();
            return true;
        }
        long n = dropped.incrementAndGet();
        Instant now = clock.instant();
        Instant last = lastDropLog.get();
        if (now.isAfter(last.plus(DROP_LOG_INTERVAL)) && lastDropLog.compareAndSet(last, now)) {
            log.warn(
                    "memory consolidation is behind: its queue of {} is full, so turn {} is not consolidated ({} "
                            + "dropped so far)",
                    queue.remainingCapacity() + queue.size(),
                    turn.turnId(),
                    n);
        }
        return false;
    }

    public Stats stats() {
        return new Stats(queued.get(), dropped.get(), done.get(), failed.get(), queue.size());
    }

    private void work() {
        while (!closed) {
            FinishedTurn turn;
            try {
                turn = queue.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (turn == null) continue;
            try {
                Consolidator.Outcome o = consolidator.consolidate(turn, cancel);
                done.incrementAndGet();
                if (o.skipped() != null) {
                    log.debug("turn {}: not consolidated: {}", turn.turnId(), o.skipped());
                } else if (!o.facts().isEmpty() || !o.absorbed().isEmpty()) {
                    log.info(
                            "turn {}: memory consolidated: {} facts kept, {} near-duplicates merged",
                            turn.turnId(),
                            o.facts().size(),
                            o.absorbed().size());
                }
            } catch (CancelledException e) {
                return;
            } catch (ProviderException e) {
                failed.incrementAndGet();
                // the kind only: a provider's message may carry its URL
                log.warn("turn {}: memory consolidation: the model call failed ({})", turn.turnId(), e.kind());
            } catch (StoreException e) {
                failed.incrementAndGet();
                log.warn("turn {}: memory consolidation: the store failed: {}", turn.turnId(), e.getMessage());
            } catch (RuntimeException e) {
                failed.incrementAndGet();
                log.error("turn {}: memory consolidation failed", turn.turnId(), e);
            }
            runFollowUp(turn);
        }
    }

    private void runFollowUp(FinishedTurn turn) {
        try {
            followUp.run();
        } catch (StoreException e) {
            log.warn("turn {}: after consolidation: the store failed: {}", turn.turnId(), e.getMessage());
        } catch (RuntimeException e) {
            log.error("turn {}: after consolidation: failed", turn.turnId(), e);
        }
    }

    /** Stops the worker: a consolidation in progress is cancelled (its model call aborted), queued ones are dropped. */
    @Override
    public void close() {
        closed = true;
        cancel.cancel("gateway shutting down");
        if (worker == null) return;
        worker.interrupt();
        try {
            worker.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
