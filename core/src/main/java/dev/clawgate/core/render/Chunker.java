package dev.clawgate.core.render;

import dev.clawgate.core.render.Cutter.Candidates;
import dev.clawgate.core.render.Cutter.Cut;
import dev.clawgate.core.render.Cutter.Rules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Splits a reply into messages that fit a channel's limit (SPEC OUT-1).
 *
 * <p>Each chunk ends at the last break that fits, preferring a paragraph (blank line), then a line break, a sentence
 * end, whitespace, and only then a hard cut; a cut never falls inside a surrogate pair or a grapheme cluster. A fenced
 * code block split across chunks is closed at the end of one and reopened with the same fence and info string at the
 * start of the next; a markdown table is split only between rows, and the next chunk repeats its header and separator
 * rows. Synthetic lines count against the limit; no chunk is blank or an empty fence. Joining the chunks gives back the
 * text, apart from the synthetic lines and the whitespace at the cuts.
 *
 * <p>A limit too small for that degrades step by step, always making progress: first tables are cut like plain lines,
 * then fences are neither closed nor reopened (the chunk holds bare code lines), then a grapheme cluster larger than
 * the whole limit is cut between code points.
 */
public final class Chunker {
    private Chunker() {}

    /** The chunks of {@code text} under {@code limits}; empty for a null or blank text. */
    public static List<String> split(String text, ChunkLimits limits) {
        Objects.requireNonNull(limits, "limits");
        List<String> chunks = new ArrayList<>();
        if (text == null) return chunks;
        Layout layout = new Layout(text, limits.measure());
        int start = layout.contentStart(0);
        while (start < layout.length) {
            start = next(layout, start, limits, chunks);
        }
        return chunks;
    }

    /**
     * One chunk and where the text after it resumes.
     *
     * @param reopen the fence the chunk closed synthetically, which the rest must reopen; or null
     */
    record Piece(String text, int next, FenceSyntax reopen) {}

    /** Adds the chunk that starts at {@code start}; returns where the next one starts. */
    private static int next(Layout layout, int start, ChunkLimits limits, List<String> chunks) {
        Piece piece = first(layout, start, limits);
        chunks.add(piece.text());
        return piece.next();
    }

    /** The chunk that starts at {@code start} (not at the end of the text), degrading as the class says. */
    static Piece first(Layout layout, int start, ChunkLimits limits) {
        for (Rules rules : Rules.values()) {
            int from = rules == Rules.PLAIN ? layout.contentStart(start) : start;
            String prefix = Cutter.prefix(layout, from, rules);
            Candidates found =
                    Cutter.search(layout, from, prefix, rules, limits.maxUnits(), limits.maxLines(), 0, true);
            Cut cut = found.best();
            if (cut != null) {
                FenceSyntax reopen =
                        cut.inFence() && !cut.endsFence() ? cut.fence().syntax() : null;
                return new Piece(Cutter.render(layout, from, prefix, cut), Cutter.nextStart(layout, cut), reopen);
            }
        }
        int from = layout.contentStart(start);
        Cut cut = Cutter.codePointCut(layout, from, limits.maxUnits(), limits.maxLines());
        return new Piece(Cutter.render(layout, from, "", cut), Cutter.nextStart(layout, cut), null);
    }
}
