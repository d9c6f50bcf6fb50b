package dev.clawgate.core.render;

import dev.clawgate.core.render.Layout.Break;
import dev.clawgate.core.render.Layout.Fence;

/**
 * Finds where one chunk of a {@link Layout} may end (SPEC OUT-1, OUT-2). A search walks the grapheme cluster boundaries
 * after the chunk's start while the chunk still fits, and keeps the last fitting cut of each {@link Break} kind, inside
 * and outside code fences; the caller ranks them.
 */
final class Cutter {

    /** What one search may do. */
    enum Rules {
        /** Fences closed and reopened, tables split only between rows with the header repeated. */
        BLOCKS,
        /** Fences closed and reopened; tables are plain lines. */
        FENCES,
        /** Plain text: no synthetic fence, no repeated header (a limit too small for them). */
        PLAIN
    }

    /**
     * One possible chunk end.
     *
     * @param at the cut: the next chunk starts at or after it
     * @param contentEnd where this chunk's text ends (trailing whitespace dropped)
     * @param fence the fence left open at the cut, closed by a synthetic closer, or null
     */
    record Cut(int at, int contentEnd, Fence fence, Break kind, boolean endsFence) {
        Cut(int at, int contentEnd, Fence fence, Break kind) {
            this(at, contentEnd, fence, kind, false);
        }

        /** Whether the chunk ends with a closer: a synthetic one, or the fence's own after blank lines. */
        boolean inFence() {
            return fence != null;
        }
    }

    /** The last fitting cut per kind and fence state of one search. */
    static final class Candidates {
        private final Cut[] outside = new Cut[Break.values().length];
        private final Cut[] inside = new Cut[Break.values().length];

        private void offer(Cut cut) {
            (cut.inFence() ? inside : outside)[cut.kind().ordinal()] = cut;
        }

        /** The last cut of {@code kind} outside (or inside) a fence, or null. */
        Cut last(Break kind, boolean inFence) {
            return (inFence ? inside : outside)[kind.ordinal()];
        }

        /** The strongest kind wins; within a kind, the later cut. */
        Cut best() {
            for (int k = Break.values().length - 1; k >= 0; k--) {
                Cut a = outside[k];
                Cut b = inside[k];
                if (a != null || b != null) return a == null ? b : b == null || a.at() > b.at() ? a : b;
            }
            return null;
        }
    }

    private Cutter() {}

    /** The synthetic first line(s) of a chunk starting at {@code start} under {@code rules}. */
    static String prefix(Layout layout, int start, Rules rules) {
        if (rules == Rules.PLAIN) return "";
        // a start in a line's indent belongs to the line: the fence an opener line opens is not reopened
        int lineStart = layout.lineStartOf(start);
        Fence fence = layout.fenceAt(layout.contentStart(lineStart) >= start ? lineStart : start);
        if (fence != null)
            return layout.contentStart(start) < fence.end() ? fence.syntax().reopen() + "\n" : "";
        Layout.Table table = rules == Rules.BLOCKS ? layout.tableContinuedAt(start) : null;
        return table == null ? "" : table.repeatedHeader();
    }

    /**
     * Searches the cuts of a chunk that starts at {@code start} with {@code prefix}.
     *
     * @param minUnits cuts leaving the chunk smaller than this are not offered
     * @param endIsFinal whether the end of the text ends the reply (else more text may follow it)
     */
    static Candidates search(
            Layout layout,
            int start,
            String prefix,
            Rules rules,
            int maxUnits,
            int maxLines,
            int minUnits,
            boolean endIsFinal) {
        Candidates found = new Candidates();
        TextMeasure measure = layout.measure;
        int prefixUnits = measure.units(prefix);
        int prefixLines = (int) prefix.chars().filter(c -> c == '\n').count();
        for (int p = layout.nextCluster(start); p != -1; p = layout.nextCluster(p)) {
            int end = Math.max(start, layout.contentEnd(p));
            int used = prefixUnits + layout.units(start, end);
            int lines = prefixLines + layout.newlines(start, end) + 1;
            if (used > maxUnits || (maxLines > 0 && lines > maxLines)) break;
            if (end == start || used < minUnits) continue;
            if (rules != Rules.PLAIN && !layout.keepsBlocks(p, rules == Rules.BLOCKS)) continue;
            Fence fence = rules == Rules.PLAIN ? null : layout.fenceAt(p);
            if (fence == null) {
                found.offer(new Cut(p, end, null, kind(layout, p, endIsFinal)));
                continue;
            }
            Cut cut = fenceCut(layout, fence, start, p, end, endIsFinal);
            if (cut != null
                    && used + layout.measure.units("\n" + fence.syntax().closer()) <= maxUnits
                    && (maxLines == 0 || lines + 1 <= maxLines)) {
                found.offer(cut);
            }
        }
        return found;
    }

    private static Break kind(Layout layout, int p, boolean endIsFinal) {
        return p == layout.length && endIsFinal ? Break.END : layout.breakAt(p);
    }

    /**
     * A cut inside a fence, closed in this chunk; null if that would leave an empty fence. When only blank lines are
     * left before the fence's own closer, that closer ends the chunk instead.
     */
    private static Cut fenceCut(Layout layout, Fence fence, int start, int p, int end, boolean endIsFinal) {
        if (layout.contentEnd(p) <= Math.max(start, fence.bodyStart())) return null;
        if (p == layout.length || layout.contentStart(p) < fence.end())
            return new Cut(p, end, fence, kind(layout, p, endIsFinal));
        if (fence.end() == layout.length) return null;
        int after = layout.lineEndOf(fence.end()) + 1;
        if (after > layout.length) return new Cut(layout.length, end, fence, endIsFinal ? Break.END : Break.LINE, true);
        return new Cut(after, end, fence, layout.breakAt(after), true);
    }

    /** Cuts at code points (a grapheme cluster larger than the limit): at least one code point. */
    static Cut codePointCut(Layout layout, int start, int maxUnits, int maxLines) {
        int p = layout.nextCodePoint(start);
        for (int q = p; q < layout.length; ) {
            int next = layout.nextCodePoint(q);
            int end = layout.contentEnd(next);
            if (layout.units(start, end) > maxUnits || (maxLines > 0 && layout.newlines(start, end) + 1 > maxLines))
                break;
            p = q = next;
        }
        return new Cut(p, Math.max(layout.nextCodePoint(start), layout.contentEnd(p)), null, Break.HARD);
    }

    /** Where the chunk after {@code cut} starts: past the whitespace, but keeping a code line's indent. */
    static int nextStart(Layout layout, Cut cut) {
        int next = layout.contentStart(cut.at());
        if (!cut.inFence() || cut.endsFence() || next >= layout.length) return next;
        return Math.max(cut.at(), layout.lineStartOf(next));
    }

    /** The chunk's text: prefix, content and, when the cut leaves a fence open, its closer. */
    static String render(Layout layout, int start, String prefix, Cut cut) {
        String body = layout.text.substring(start, cut.contentEnd());
        return cut.inFence() ? prefix + body + "\n" + cut.fence().syntax().closer() : prefix + body;
    }
}
