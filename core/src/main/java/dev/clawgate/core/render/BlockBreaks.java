package dev.clawgate.core.render;

import dev.clawgate.core.internal.render.BlockStreaming.BreakPreference;
import dev.clawgate.core.render.Cutter.Candidates;
import dev.clawgate.core.render.Cutter.Cut;
import dev.clawgate.core.render.Layout.Break;

/**
 * Where the next streamed block ends (SPEC OUT-2): outside code fences, by the break order from the configured
 * {@link BreakPreference}; only when the buffer outgrew the block limit, inside a fence next, and a hard cut last.
 */
final class BlockBreaks {
    private final ChunkLimits limits;
    private final BreakPreference preference;

    BlockBreaks(ChunkLimits limits, BreakPreference preference) {
        this.limits = limits;
        this.preference = preference;
    }

    /** The cut of a block starting at {@code start} and holding at least {@code min} units, or null. */
    Cut choose(Layout layout, int start, boolean forced, int min) {
        Candidates found =
                Cutter.search(layout, start, "", Cutter.Rules.BLOCKS, limits.maxUnits(), limits.maxLines(), min, false);
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
        return switch (preference) {
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
}
