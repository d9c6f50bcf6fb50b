package dev.clawgate.core.render;

import dev.clawgate.core.render.Cutter.Cut;
import java.util.List;

/**
 * The text of a block stream not sent yet (SPEC OUT-1, OUT-2), with the fence and table state a cut leaves: the opener
 * of a fence the last block closed synthetically, or the header of a table it cut, is carried before the rest, so the
 * next cut sees that fence or table like any other (and never mistakes two rows for a header). Not thread-safe: the
 * {@link BlockChunker} holds its lock.
 */
final class BlockBuffer {
    private final ChunkLimits limits;
    /**
     * The whole reply so far: where a table really starts, which the buffer alone cannot tell once a block cut into it.
     */
    private final ReplyTables tables;
    /** Model text not sent yet. */
    private String pending = "";
    /**
     * The opener of a fence the last block closed synthetically, or the header of a table it cut, repeated before
     * {@code pending}.
     */
    private String carry = "";
    /** Whether {@code carry} is a table's repeated header (else a fence opener or nothing). */
    private boolean carryTable;

    BlockBuffer(ChunkLimits limits) {
        this.limits = limits;
        this.tables = new ReplyTables(limits.measure());
    }

    void append(String delta) {
        pending += delta;
        tables.append(delta);
    }

    /** Whether no model text waits (the carry alone is not text to send). */
    boolean isBlank() {
        return pending.isBlank();
    }

    /**
     * What may be cut now, the carry first: an unfinished last line that may still become a fence line is left out, for
     * it waits for the rest of it. Null when nothing past the carry is left.
     */
    Layout cuttable() {
        String text = carry + pending;
        int lastLine = text.lastIndexOf('\n') + 1;
        if (maybeFenceLine(text.substring(lastLine))) text = text.substring(0, lastLine);
        if (text.substring(carry.length()).isBlank()) return null;
        return new Layout(text, limits.measure());
    }

    /** All that is held, the carry first (at the idle time the unfinished last line is cut like any). */
    Layout all() {
        return new Layout(carry + pending, limits.measure());
    }

    /**
     * Takes the block {@code cut} ends out of the buffer and carries what the rest needs before it; null when the block
     * would hold nothing but a repeated table header (dropped: cut again).
     */
    String take(Layout layout, int start, Cut cut) {
        if (headerOnly(cut.contentEnd())) return null;
        String block = Cutter.render(layout, start, "", cut);
        int next = Cutter.nextStart(layout, cut);
        String header = cut.inFence() ? null : headerForRowAt(layout, next);
        // the layout may leave out the buffer's unfinished last line
        pending = (carry + pending).substring(next);
        // a reopened fence, or a table's header when the cut fell between its rows, goes before the rest (SPEC OUT-1)
        carryTable = header != null;
        if (cut.inFence() && !cut.endsFence()) carry = cut.fence().syntax().reopen() + "\n";
        else carry = carryTable ? header : "";
        if (carry.isEmpty() && pending.isEmpty()) carryHeaderAfterLastRow();
        return block;
    }

    /**
     * No cut of the usual kinds fits (a limit too small for the fences): degrades like the {@link Chunker}; null as for
     * {@link #take}.
     */
    String takeForced(Layout layout, int start) {
        Chunker.Piece piece = Chunker.first(layout, start, limits);
        if (headerOnly(piece.next())) return null;
        pending = (carry + pending).substring(piece.next());
        carry = piece.reopen() == null ? "" : piece.reopen().reopen() + "\n";
        carryTable = false;
        return piece.text();
    }

    /**
     * Takes all buffered text as blocks within the limits. A fence still open at its end is reopened for the text that
     * follows; until the reply is {@code finished}, a fence opener with nothing after it yet, or a last line that may
     * become a fence line, stays buffered.
     */
    List<String> takeAll(boolean finished) {
        settle(finished);
        if (pending.isBlank()) {
            pending = "";
            return List.of();
        }
        Layout layout = all();
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
        return Chunker.split(text, limits);
    }

    /**
     * Empties the buffer and returns its text, with a fence a sent block closed reopened before it; "" when only
     * whitespace was left.
     */
    String takeRest() {
        settle(true);
        String rest = pending.isBlank() ? "" : carry + pending;
        clear();
        return rest;
    }

    void clear() {
        pending = "";
        carry = "";
        carryTable = false;
    }

    /**
     * Drops a carry that no longer belongs: a repeated table header before text that left the table, or a reopened
     * fence whose own closer just arrived (that closer is the one a block already sent: it goes with the opener, or the
     * next block would be an empty fence).
     */
    void settle(boolean finished) {
        if (carry.isEmpty()) return;
        if (carryTable) {
            // a repeated header stays only before more rows of its table, and only where it fits with one
            if (ReplyTables.headerEnds(carry, pending, finished, limits)) {
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
     * The header to repeat when a row of a table starts at {@code p} of the layout (the carry, then the buffer); or
     * null.
     */
    private String headerForRowAt(Layout layout, int p) {
        if (p >= layout.length
                || layout.text
                                .substring(layout.lineStartOf(p), layout.lineEndOf(p))
                                .indexOf('|')
                        < 0) return null;
        return tables.headerForRowAt(carry.length() + pending.length() - p);
    }

    /**
     * All text went out, ending with a table row: the model may go on with the table, so its header goes first (SPEC
     * OUT-1).
     */
    private void carryHeaderAfterLastRow() {
        String header = tables.headerAfterLastRow();
        carryTable = header != null;
        carry = carryTable ? header : "";
    }

    /**
     * A block would hold nothing but the repeated table header: no row fits after it, so the header is dropped (as the
     * {@link Chunker} drops it for a limit too small) and the caller cuts again.
     */
    private boolean headerOnly(int contentEnd) {
        if (!carryTable || contentEnd > carry.length()) return false;
        carry = "";
        carryTable = false;
        return true;
    }

    /**
     * Whether an unfinished line may still grow into a fence delimiter line, or into another one than it is now: so far
     * only backticks or only tildes, indented by at most three spaces. Anything more after the run makes an opener the
     * layout keeps whole (like {@code "```js"}) or a line that can never become a delimiter (like {@code "`x"}).
     */
    private static boolean maybeFenceLine(String line) {
        String s = line.strip();
        return !s.isEmpty()
                && (s.charAt(0) == '`' || s.charAt(0) == '~')
                && s.chars().allMatch(c -> c == s.charAt(0))
                && line.length() - line.stripLeading().length() <= 3;
    }
}
