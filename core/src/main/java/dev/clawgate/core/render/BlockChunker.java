package dev.clawgate.core.render;

import dev.clawgate.core.internal.render.BlockSink;
import dev.clawgate.core.internal.render.BlockStreaming;
import dev.clawgate.core.internal.render.BlockStreaming.BreakMode;
import dev.clawgate.core.render.Cutter.Cut;
import dev.clawgate.core.run.Scheduler;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * Block streaming (SPEC OUT-2): fed the model's text as it arrives, sends it on as blocks.
 *
 * <p>A block is cut once the buffer holds {@code minChars}: at the last blank line at or past {@code minChars}, else
 * the last line break, sentence end or whitespace (starting from the configured
 * {@link BlockStreaming.BreakPreference}), never inside an open code fence and never with a hard cut — unless the
 * buffer outgrew {@code maxChars}: then the cut is forced, a fence is closed and reopened, and a hard cut is the last
 * resort. Until the end of the reply, an unfinished last line that may still become a fence delimiter line (only
 * backticks or tildes so far) waits for the rest of it: cut now, a longer fence's opener could come out as a stray
 * {@code `} and a shorter fence. At the end of a text block ({@code text_end}) or of the model's message, complete text
 * goes out; what is still smaller than {@code minChars} is coalesced with what follows, or sent when
 * {@code coalesceIdle} passes without new text. After the first block, each block waits {@code humanDelay}. Sizes count
 * what the channel counts; {@code maxChars} is clamped to the channel limit.
 *
 * <p>Time comes only from the {@link Scheduler}, so tests run on a manual clock. Safe for one producer thread plus the
 * scheduler's; the sink is called under the lock, in order.
 *
 * <p>This class decides when a block is due; {@link BlockBreaks} finds where it ends, {@link BlockBuffer} holds the
 * text with the fence and table state a cut leaves, and {@link BlockPacing} times the idle flush and the human delay.
 */
public final class BlockChunker {
    private final BlockStreaming settings;
    private final ChunkLimits blockLimits;
    private final int minUnits;
    private final ReentrantLock lock = new ReentrantLock();
    private final BlockBreaks breaks;
    private final BlockBuffer buffer;
    private final BlockPacing pacing;
    private boolean textEnded;
    private boolean finished;
    private boolean cancelled;

    public BlockChunker(
            BlockStreaming settings,
            ChunkLimits channelLimits,
            Scheduler scheduler,
            RandomGenerator random,
            BlockSink sink) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.blockLimits = channelLimits.withMaxUnits(Math.min(settings.maxChars(), channelLimits.maxUnits()));
        this.minUnits = Math.min(settings.minChars(), blockLimits.maxUnits());
        this.breaks = new BlockBreaks(blockLimits, settings.breakPreference());
        this.buffer = new BlockBuffer(blockLimits);
        this.pacing = new BlockPacing(
                Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(random, "random"),
                settings.humanDelay(),
                Objects.requireNonNull(sink, "sink"),
                lock);
    }

    /** The limits each block is held to: the channel's, with {@code maxChars} as the unit limit if lower. */
    public ChunkLimits blockLimits() {
        return blockLimits;
    }

    /** Takes the next piece of model text. */
    public void push(String delta) {
        lock.lock();
        try {
            checkOpen();
            if (cancelled || delta == null || delta.isEmpty()) return;
            buffer.append(delta);
            textEnded = false;
            if (settings.breakMode() == BreakMode.TEXT_END) {
                drain(false);
                restartIdleTimer();
            } else pacing.cancelIdle();
        } finally {
            lock.unlock();
        }
    }

    /** A text block of the model ended (e.g. before a tool call); a boundary in {@code text_end} mode. */
    public void textEnd() {
        lock.lock();
        try {
            checkOpen();
            if (!cancelled && settings.breakMode() == BreakMode.TEXT_END) boundary();
        } finally {
            lock.unlock();
        }
    }

    /** The model's message ended; a boundary in both modes. */
    public void messageEnd() {
        lock.lock();
        try {
            checkOpen();
            if (!cancelled) boundary();
        } finally {
            lock.unlock();
        }
    }

    /** The reply is complete: everything still held is sent, chunked within the block limits. */
    public void finish() {
        lock.lock();
        try {
            checkOpen();
            finished = true;
            pacing.cancelIdle();
            if (!cancelled) flushAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the stream without sending what it still holds, and returns that text for the caller to send another way
     * (the final reply sends the rest, SPEC OUT-2): blocks waiting for their delay, then the buffered text, with a
     * fence a sent block closed reopened before it. "" when all was sent.
     */
    public String takeUnsent() {
        lock.lock();
        try {
            checkOpen();
            finished = true;
            cancelled = true;
            StringBuilder rest = new StringBuilder();
            for (String block : pacing.stop())
                rest.append(rest.isEmpty() ? "" : "\n\n").append(block);
            String buffered = buffer.takeRest();
            if (!buffered.isEmpty()) rest.append(rest.isEmpty() ? "" : "\n\n").append(buffered);
            return rest.toString().strip();
        } finally {
            lock.unlock();
        }
    }

    /** Drops everything not yet sent (the run was cancelled, SPEC OUT-11). */
    public void cancel() {
        lock.lock();
        try {
            cancelled = true;
            pacing.stop();
            buffer.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is held back: no text buffered and no block waiting for its delay. */
    public boolean isIdle() {
        lock.lock();
        try {
            return buffer.isBlank() && pacing.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() {
        if (finished) throw new IllegalStateException("the block stream was already finished");
    }

    private void boundary() {
        textEnded = true;
        drain(true);
        restartIdleTimer();
    }

    /** Sends every block the buffer holds; at a boundary, complete text of at least {@code minChars} too. */
    private void drain(boolean atBoundary) {
        while (!buffer.isBlank()) {
            buffer.settle(finished);
            Layout layout = buffer.cuttable();
            if (layout == null) return;
            int start = layout.contentStart(0);
            int total = layout.units(start, layout.contentEnd(layout.length));
            if (total < minUnits) return;
            if (atBoundary && total <= blockLimits.maxUnits()) {
                flushAll();
                return;
            }
            boolean forced = total > blockLimits.maxUnits();
            Cut cut = breaks.choose(layout, start, forced, minUnits);
            if (cut == null && forced) cut = breaks.choose(layout, start, true, 0);
            if (cut != null) deliver(buffer.take(layout, start, cut));
            else if (forced) deliver(buffer.takeForced(layout, start));
            else return;
        }
    }

    /**
     * The idle time passed without new text (called under the lock): send what is complete, or up to the last safe
     * break.
     */
    private void onIdle() {
        buffer.settle(finished);
        if (cancelled || finished || buffer.isBlank()) return;
        if (textEnded) {
            flushAll();
            return;
        }
        Layout layout = buffer.all();
        int start = layout.contentStart(0);
        Cut cut = breaks.choose(layout, start, false, 0);
        if (cut != null) deliver(buffer.take(layout, start, cut));
    }

    private void flushAll() {
        for (String chunk : buffer.takeAll(finished)) pacing.deliver(chunk);
    }

    /** {@code block} is null when the buffer dropped a lone table header instead: nothing to send. */
    private void deliver(String block) {
        if (block != null) pacing.deliver(block);
    }

    private void restartIdleTimer() {
        if (buffer.isBlank()) pacing.cancelIdle();
        else pacing.idleIn(settings.coalesceIdle(), this::onIdle);
    }
}
