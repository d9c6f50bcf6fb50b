package dev.clawgate.core.outbound;

import dev.clawgate.core.run.Scheduler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live preview of one reply, for channels that can edit a message (SPEC OUT-9, RP-4): a draft shown at once by
 * {@link #start} (before the model's first token), then replaced with the text and reasoning so far, at most once per
 * {@code interval}. Deltas only append; the platform calls run on {@code io}, one at a time and never under the lock,
 * so the model stream never waits on the platform. Time comes only from the {@link Scheduler}, so tests move it by
 * hand. {@link #finish} discards what is still pending and waits for a call in flight, so no preview update can land
 * after the final reply.
 */
public final class LivePreview implements ReplyStream {
    private static final Logger log = LoggerFactory.getLogger(LivePreview.class);

    /** What the preview shows: the reply text and the streamed reasoning so far (either may be empty). */
    public record Draft(String text, String reasoning) {
        public Draft {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(reasoning, "reasoning");
        }

        /** Nothing generated yet: the platform shows its placeholder ({@code ...}). */
        public boolean empty() {
            return text.isBlank() && reasoning.isBlank();
        }
    }

    /** The platform side: the first call shows the draft as a new message, later calls edit it. */
    @FunctionalInterface
    public interface Surface {
        /** Shows {@code draft}; runs on the preview's I/O executor, never two at a time. */
        Shown show(Draft draft);
    }

    /**
     * How a {@link Surface#show} went.
     *
     * @param keepGoing false: the preview stops (the platform refused it); the final reply goes out normally
     * @param holdOff not zero: the platform refused this update for now (its retry-after); the draft is shown again, no
     *     sooner than this
     */
    public record Shown(boolean keepGoing, Duration holdOff) {
        public static final Shown OK = new Shown(true, Duration.ZERO);
        public static final Shown STOP = new Shown(false, Duration.ZERO);

        public static Shown retryAfter(Duration wait) {
            return new Shown(true, wait);
        }
    }

    private final Surface surface;
    private final Duration interval;
    private final Scheduler scheduler;
    private final Executor io;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition settled = lock.newCondition();
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    /** Something to show that the platform has not seen yet. */
    private boolean dirty;
    /** A call is in flight, or the interval after the last one has not passed: deltas only wait. */
    private boolean busy;

    private boolean inFlight;
    private boolean closed;
    private boolean stopped;
    private Scheduler.Cancellable cooling;

    /** How long {@link #finish} waits for a platform call in flight, unless told otherwise. */
    public static final Duration FINISH_WAIT = Duration.ofSeconds(10);

    /**
     * @param interval the least time between two platform calls of this preview
     * @param io where the platform calls run (a virtual thread per call in production)
     */
    public LivePreview(Surface surface, Duration interval, Scheduler scheduler, Executor io) {
        this.surface = Objects.requireNonNull(surface, "surface");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.io = Objects.requireNonNull(io, "io");
    }

    /** Shows the draft placeholder at once (SPEC OUT-9); later deltas edit it. */
    public void start() {
        append(null, "");
    }

    @Override
    public void delta(String delta) {
        append(text, delta);
    }

    /** SPEC RP-4 stream: the reasoning rides along in the same draft. */
    @Override
    public void reasoning(String delta) {
        append(reasoning, delta);
    }

    private void append(StringBuilder into, String delta) {
        boolean kick;
        lock.lock();
        try {
            if (closed || stopped) return;
            if (into != null) {
                if (delta == null || delta.isEmpty()) return;
                into.append(delta);
            }
            dirty = true;
            kick = !busy;
            if (kick) claim();
        } finally {
            lock.unlock();
        }
        if (kick) io.execute(this::push);
    }

    /** Under the lock: the next platform call is ours to make. */
    private void claim() {
        busy = true;
        inFlight = true;
    }

    private void push() {
        Draft draft;
        lock.lock();
        try {
            if (closed) {
                release();
                return;
            }
            draft = new Draft(text.toString(), reasoning.toString());
            dirty = false;
        } finally {
            lock.unlock();
        }
        Shown shown;
        try {
            shown = surface.show(draft);
        } catch (RuntimeException e) {
            log.warn("live preview stopped: {}", e.toString());
            shown = Shown.STOP;
        }
        lock.lock();
        try {
            release();
            if (!shown.keepGoing()) stopped = true;
            if (!shown.holdOff().isZero()) dirty = true;
            if (closed || stopped) return;
            Duration wait = shown.holdOff().compareTo(interval) > 0 ? shown.holdOff() : interval;
            cooling = scheduler.schedule(wait, this::cooled);
        } finally {
            lock.unlock();
        }
    }

    private void release() {
        inFlight = false;
        settled.signalAll();
    }

    /** The interval after a call passed: show what came meanwhile, or go idle until the next delta. */
    private void cooled() {
        boolean kick;
        lock.lock();
        try {
            cooling = null;
            if (closed || stopped) return;
            kick = dirty;
            if (kick) claim();
            else busy = false;
        } finally {
            lock.unlock();
        }
        if (kick) io.execute(this::push);
    }

    /**
     * Stops the preview: a pending update is dropped (discardPending), and a call in flight is waited for, at most
     * {@code wait}. Returns whether the preview still worked (it was not stopped by a refused call).
     */
    public boolean finish(Duration wait) {
        lock.lock();
        try {
            closed = true;
            if (cooling != null) cooling.cancel();
            cooling = null;
            long left = wait.toNanos();
            while (inFlight && left > 0) left = settled.awaitNanos(left);
            if (inFlight)
                log.warn("live preview: an update still in flight after {}; the final reply goes anyway", wait);
            return !stopped;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !stopped;
        } finally {
            lock.unlock();
        }
    }
}
