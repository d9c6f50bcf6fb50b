package dev.clawgate.server.channel;

import dev.clawgate.core.outbound.ReplyStream;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The live preview of one web chat reply (SPEC OUT-9): the first delta shows a draft at once, later
 * deltas edit it with the whole text so far, at most once per {@code interval}; with
 * {@code /reasoning stream} (RP-4) the reasoning so far rides along in the same frames. {@link #finish}
 * drops any pending edit and hands the draft's id to the final reply, which replaces the draft.
 */
final class WebChatPreview implements ReplyStream {
    private final String replyTo;
    private final String draftId;
    private final Duration interval;
    private final ScheduledExecutorService timer;
    private final Consumer<String> frames;
    private final ReentrantLock lock = new ReentrantLock();
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private boolean shown;
    private boolean closed;
    private long lastSent;
    private ScheduledFuture<?> pending;

    WebChatPreview(String replyTo, String draftId, Duration interval, ScheduledExecutorService timer, Consumer<String> frames) {
        this.replyTo = replyTo;
        this.draftId = draftId;
        this.interval = interval;
        this.timer = timer;
        this.frames = frames;
    }

    @Override
    public void delta(String delta) {
        update(text, delta);
    }

    @Override
    public void reasoning(String delta) {
        update(reasoning, delta);
    }

    private void update(StringBuilder into, String delta) {
        lock.lock();
        try {
            if (closed || delta == null || delta.isEmpty()) return;
            into.append(delta);
            if (!shown) {
                shown = true;
                send("draft");
            } else if (pending == null) {
                long wait = lastSent + interval.toNanos() - System.nanoTime();
                if (wait <= 0) send("edit");
                else pending = timer.schedule(this::flush, wait, TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    private void flush() {
        lock.lock();
        try {
            pending = null;
            if (!closed) send("edit");
        } finally {
            lock.unlock();
        }
    }

    private void send(String type) {
        lastSent = System.nanoTime();
        frames.accept(WebChatFrames.preview(type, replyTo, draftId, text.toString(), reasoning.isEmpty() ? null : reasoning.toString()));
    }

    /** Stops the preview: a pending edit is discarded. Returns the draft's id, or null when no draft was shown. */
    String finish() {
        lock.lock();
        try {
            closed = true;
            if (pending != null) pending.cancel(false);
            pending = null;
            return shown ? draftId : null;
        } finally {
            lock.unlock();
        }
    }
}
