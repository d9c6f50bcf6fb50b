package dev.clawgate.core.render;

import dev.clawgate.core.inbound.Scheduler;
import dev.clawgate.core.render.BlockStreaming.BreakMode;
import dev.clawgate.core.render.Cutter.Candidates;
import dev.clawgate.core.render.Cutter.Cut;
import dev.clawgate.core.render.Layout.Break;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * Block streaming (SPEC OUT-2): fed the model's text as it arrives, sends it on as blocks.
 *
 * <p>A block is cut once the buffer holds {@code minChars}: at the last blank line at or past
 * {@code minChars}, else the last line break, sentence end or whitespace (starting from the
 * configured {@link BlockStreaming.BreakPreference}), never inside an open code fence and never
 * with a hard cut — unless the buffer outgrew {@code maxChars}: then the cut is forced, a fence is
 * closed and reopened, and a hard cut is the last resort. Until the end of the reply, an unfinished
 * last line that may still become a fence delimiter line (only backticks or tildes so far) waits
 * for the rest of it: cut now, a longer fence's opener could come out as a stray {@code `} and a
 * shorter fence. At the end of a text block
 * ({@code text_end}) or of the model's message, complete text goes out; what is still smaller than
 * {@code minChars} is coalesced with what follows, or sent when {@code coalesceIdle} passes
 * without new text. After the first block, each block waits {@code humanDelay}. Sizes count what
 * the channel counts; {@code maxChars} is clamped to the channel limit.
 *
 * <p>Time comes only from the {@link Scheduler}, so tests run on a manual clock. Safe for one
 * producer thread plus the scheduler's; the sink is called under the lock, in order.
 */
public final class BlockChunker {
    private final BlockStreaming settings;
    private final ChunkLimits blockLimits;
    private final int minUnits;
    private final Scheduler scheduler;
    private final RandomGenerator random;
    private final BlockSink sink;
    private final ReentrantLock lock = new ReentrantLock();

    /** Model text not sent yet. */
    private String pending = "";
    /** The opener of a fence the last block closed synthetically, or the header of a table it cut, repeated before {@code pending}. */
    private String carry = "";
    /** Whether {@code carry} is a table's repeated header (else a fence opener or nothing). */
    private boolean carryTable;
    /** The whole reply so far: where a table really starts, which the buffer alone cannot tell once a block cut into it. */
    private final ReplyTables tables;
    private boolean textEnded;
    private boolean finished;
    private boolean cancelled;
    private boolean sentFirst;
    private Scheduler.Cancellable idleTimer;
    private Scheduler.Cancellable delayTimer;
    private final Queue<String> ready = new ArrayDeque<>();

    public BlockChunker(BlockStreaming settings, ChunkLimits channelLimits, Scheduler scheduler, RandomGenerator random,
                        BlockSink sink) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.blockLimits = channelLimits.withMaxUnits(Math.min(settings.maxChars(), channelLimits.maxUnits()));
        this.minUnits = Math.min(settings.minChars(), blockLimits.maxUnits());
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.random = Objects.requireNonNull(random, "random");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.tables = new ReplyTables(blockLimits.measure());
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
            pending += delta;
            tables.append(delta);
            textEnded = false;
            if (settings.breakMode() == BreakMode.TEXT_END) {
                drain(false);
                restartIdleTimer();
            } else cancelIdleTimer();
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
            cancelIdleTimer();
            if (!cancelled) flushAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the stream without sending what it still holds, and returns that text for the caller to
     * send another way (the final reply sends the rest, SPEC OUT-2): blocks waiting for their delay,
     * then the buffered text, with a fence a sent block closed reopened before it. "" when all was sent.
     */
    public String takeUnsent() {
        lock.lock();
        try {
            checkOpen();
            finished = true;
            cancelIdleTimer();
            if (delayTimer != null) delayTimer.cancel();
            delayTimer = null;
            settleCarry();
            StringBuilder rest = new StringBuilder();
            for (String block : ready) rest.append(rest.isEmpty() ? "" : "\n\n").append(block);
            if (!pending.isBlank()) rest.append(rest.isEmpty() ? "" : "\n\n").append(carry).append(pending);
            cancelled = true;
            ready.clear();
            pending = "";
            carry = "";
            carryTable = false;
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
            cancelIdleTimer();
            if (delayTimer != null) delayTimer.cancel();
            delayTimer = null;
            pending = "";
            carry = "";
            carryTable = false;
            ready.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is held back: no text buffered and no block waiting for its delay. */
    public boolean isIdle() {
        lock.lock();
        try {
            return pending.isBlank() && ready.isEmpty();
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
        while (!pending.isBlank()) {
            settleCarry();
            String text = carry + pending;
            // an unfinished last line that may still become a fence line is not cut yet: it waits for the rest of it
            int lastLine = text.lastIndexOf('\n') + 1;
            if (maybeFenceLine(text.substring(lastLine))) text = text.substring(0, lastLine);
            if (text.substring(carry.length()).isBlank()) return;
            Layout layout = new Layout(text, blockLimits.measure());
            int start = layout.contentStart(0);
            int total = layout.units(start, layout.contentEnd(layout.length));
            if (total < minUnits) return;
            if (atBoundary && total <= blockLimits.maxUnits()) {
                flushAll();
                return;
            }
            boolean forced = total > blockLimits.maxUnits();
            Cut cut = chooseCut(layout, start, forced, minUnits);
            if (cut == null && forced) cut = chooseCut(layout, start, true, 0);
            if (cut != null) emit(layout, start, cut);
            else if (forced) forcedPiece(layout, start);
            else return;
        }
    }

    /** The idle time passed without new text: send what is complete, or up to the last safe break. */
    private void onIdle() {
        lock.lock();
        try {
            idleTimer = null;
            settleCarry();
            if (cancelled || finished || pending.isBlank()) return;
            if (textEnded) {
                flushAll();
                return;
            }
            Layout layout = new Layout(carry + pending, blockLimits.measure());
            int start = layout.contentStart(0);
            Cut cut = chooseCut(layout, start, false, 0);
            if (cut != null) emit(layout, start, cut);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The cut for the next block: outside fences, by the break order from the preferred kind; when
     * forced, inside a fence next, and a hard cut last.
     */
    private Cut chooseCut(Layout layout, int start, boolean forced, int min) {
        Candidates found = Cutter.search(layout, start, "", Cutter.Rules.BLOCKS, blockLimits.maxUnits(),
                blockLimits.maxLines(), min, false);
        Cut cut = preferred(found, false);
        if (cut != null || !forced) return cut;
        cut = preferred(found, true);
        if (cut != null) return cut;
        Cut outside = found.last(Break.HARD, false);
        Cut inside = found.last(Break.HARD, true);
        if (outside == null || inside == null) return outside == null ? inside : outside;
        return outside.at() >= inside.at() ? outside : inside;
    }

    private Cut preferred(Candidates found, boolean inFence) {
        Cut paragraph = found.last(Break.PARAGRAPH, inFence);
        Cut line = later(found.last(Break.LINE, inFence), paragraph);
        Cut sentence = found.last(Break.SENTENCE, inFence);
        Cut word = found.last(Break.WORD, inFence);
        return switch (settings.breakPreference()) {
            case PARAGRAPH -> first(paragraph, line, sentence, word);
            case NEWLINE -> first(line, sentence, word);
            case SENTENCE -> first(later(sentence, line), word);
        };
    }

    private static Cut later(Cut a, Cut b) {
        if (a == null || b == null) return a == null ? b : a;
        return a.at() >= b.at() ? a : b;
    }

    private static Cut first(Cut... cuts) {
        for (Cut c : cuts) if (c != null) return c;
        return null;
    }

    private void emit(Layout layout, int start, Cut cut) {
        if (headerOnly(cut.contentEnd())) return;
        String block = Cutter.render(layout, start, "", cut);
        int next = Cutter.nextStart(layout, cut);
        String header = cut.inFence() ? null : headerForRowAt(layout, next);
        // the layout may leave out the buffer's unfinished last line
        pending = (carry + pending).substring(next);
        // a reopened fence, or a table's header when the cut fell between its rows, goes before the rest (SPEC OUT-1),
        // so the next cut sees the fence or table like any other (and never mistakes two rows for a header)
        carryTable = header != null;
        if (cut.inFence() && !cut.endsFence()) carry = cut.fence().syntax().reopen() + "\n";
        else carry = carryTable ? header : "";
        if (carry.isEmpty() && pending.isEmpty()) carryHeaderAfterLastRow();
        deliver(block);
    }

    /** The header to repeat when a row of a table starts at {@code p} of the layout (the carry, then the buffer); or null. */
    private String headerForRowAt(Layout layout, int p) {
        if (p >= layout.length || layout.text.substring(layout.lineStartOf(p), layout.lineEndOf(p)).indexOf('|') < 0) return null;
        return tables.headerForRowAt(carry.length() + pending.length() - p);
    }

    /** All text went out, ending with a table row: the model may go on with the table, so its header goes first (SPEC OUT-1). */
    private void carryHeaderAfterLastRow() {
        String header = tables.headerAfterLastRow();
        carryTable = header != null;
        carry = carryTable ? header : "";
    }

    /** No cut of the usual kinds fits (a limit too small for the fences): degrade like the {@link Chunker}. */
    private void forcedPiece(Layout layout, int start) {
        Chunker.Piece piece = Chunker.first(layout, start, blockLimits);
        if (headerOnly(piece.next())) return;
        pending = (carry + pending).substring(piece.next());
        carry = piece.reopen() == null ? "" : piece.reopen().reopen() + "\n";
        carryTable = false;
        deliver(piece.text());
    }

    /**
     * A block would hold nothing but the repeated table header: no row fits after it, so the header
     * is dropped (as the {@link Chunker} drops it for a limit too small) and the caller cuts again.
     */
    private boolean headerOnly(int contentEnd) {
        if (!carryTable || contentEnd > carry.length()) return false;
        carry = "";
        carryTable = false;
        return true;
    }

    /**
     * When a block closed a fence just before the fence's own closer arrived, that closer is the one
     * already sent: drop it with the reopened opener, or the next block would be an empty fence.
     */
    private void settleCarry() {
        if (carry.isEmpty()) return;
        if (carryTable) {
            // a repeated header stays only before more rows of its table, and only where it fits with one
            if (ReplyTables.headerEnds(carry, pending, finished, blockLimits)) {
                carry = "";
                carryTable = false;
            }
            return;
        }
        int start = 0;
        while (start < pending.length() && Character.isWhitespace(pending.charAt(start))) start++;
        int end = pending.indexOf('\n', start);
        if (start == pending.length() || (end < 0 && !finished)) return;
        String line = pending.substring(start, end < 0 ? pending.length() : end);
        FenceSyntax fence = FenceSyntax.opening(carry.strip());
        if (fence != null && fence.closedBy(line)) {
            carry = "";
            pending = pending.substring(end < 0 ? pending.length() : end);
        }
    }

    /**
     * Sends all buffered text. A fence still open at its end is reopened for the text that
     * follows; a fence opener with nothing after it yet stays buffered (its info string may be incomplete).
     */
    private void flushAll() {
        settleCarry();
        if (pending.isBlank()) {
            pending = "";
            return;
        }
        Layout layout = new Layout(carry + pending, blockLimits.measure());
        Layout.Fence open = layout.fenceAt(layout.length);
        String text = layout.text;
        carry = "";
        carryTable = false;
        pending = "";
        int lastLine = layout.lineStartOf(layout.length);
        if (open != null && !finished && layout.contentStart(open.bodyStart()) >= layout.length) {
            int opener = layout.lineStartOf(Math.max(0, open.bodyStart() - 1));
            pending = text.substring(opener);
            text = text.substring(0, opener);
        } else if (!finished && maybeFenceLine(text.substring(lastLine))) {
            // an unfinished last line that may become a fence line waits for the rest of it
            Layout.Fence before = layout.fenceAt(lastLine);
            pending = text.substring(lastLine);
            text = text.substring(0, lastLine);
            if (before != null) carry = before.syntax().reopen() + "\n";
        } else if (open != null) {
            carry = open.syntax().reopen() + "\n";
        }
        if (carry.isEmpty() && pending.isEmpty() && !finished) carryHeaderAfterLastRow();
        for (String chunk : Chunker.split(text, blockLimits)) deliver(chunk);
    }

    /**
     * Whether an unfinished line may still grow into a fence delimiter line, or into another one than
     * it is now: so far only backticks or only tildes, indented by at most three spaces. Anything more
     * after the run makes an opener the layout keeps whole (like {@code "```js"}) or a line that can
     * never become a delimiter (like {@code "`x"}).
     */
    private static boolean maybeFenceLine(String line) {
        String s = line.strip();
        return !s.isEmpty() && (s.charAt(0) == '`' || s.charAt(0) == '~') && s.chars().allMatch(c -> c == s.charAt(0))
                && line.length() - line.stripLeading().length() <= 3;
    }

    private void restartIdleTimer() {
        cancelIdleTimer();
        if (!pending.isBlank()) idleTimer = scheduler.schedule(settings.coalesceIdle(), this::onIdle);
    }

    private void cancelIdleTimer() {
        if (idleTimer != null) idleTimer.cancel();
        idleTimer = null;
    }

    /** Sends a block now, or after the human delay when it is not the first. */
    private void deliver(String block) {
        ready.add(block);
        pump();
    }

    private void pump() {
        while (delayTimer == null && !ready.isEmpty()) {
            if (sentFirst && !settings.humanDelay().isOff()) {
                delayTimer = scheduler.schedule(settings.humanDelay().next(random), this::onDelay);
                return;
            }
            sentFirst = true;
            sink.send(ready.remove());
        }
    }

    private void onDelay() {
        lock.lock();
        try {
            delayTimer = null;
            if (cancelled || ready.isEmpty()) return;
            sink.send(ready.remove());
            pump();
        } finally {
            lock.unlock();
        }
    }
}
