package dev.clawgate.core.internal.toolcall;

import java.util.List;

/**
 * Model reasoning written inline in a reasoning tag (SPEC RP-2, RP-4), by default {@link ReasoningTags#DEFAULT};
 * {@code agent.reasoning_tags} sets the names. Only exact tag names count: {@code <thinking-cap>} is the user's
 * content. An unclosed block runs to the end of the text; a close tag with no open tag is protocol and is removed (the
 * text before it stays, as a stream that already showed it would have).
 */
public final class ThinkTags {
    /** The reply without reasoning, and the reasoning that was cut out (blocks joined by a blank line). */
    public record Split(String visible, String reasoning) {}

    private ThinkTags() {}

    public static Split split(String text) {
        return split(text, ReasoningTags.DEFAULT);
    }

    public static Split split(String text, ReasoningTags tags) {
        if (text == null || text.isEmpty()) return new Split("", "");
        List<Segment> segments = OutputScanner.scanAll(text, tags, null);
        StringBuilder visible = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        StringBuilder block = new StringBuilder();
        boolean changed = false;
        for (Segment s : segments) {
            if (s.kind() != Segment.Kind.REASONING) {
                visible.append(s.source());
                continue;
            }
            changed = true;
            block.append(s.inner());
            if (s.source().endsWith(">") && s.inner().length() < s.source().length()) endBlock(reasoning, block);
        }
        endBlock(reasoning, block);
        return changed ? new Split(Layout.tidy(visible.toString()), reasoning.toString()) : new Split(text, "");
    }

    /** A reasoning block ended: its text joins the others, blocks separated by a blank line. */
    private static void endBlock(StringBuilder reasoning, StringBuilder block) {
        String p = block.toString().strip();
        block.setLength(0);
        if (p.isEmpty()) return;
        if (!reasoning.isEmpty()) reasoning.append("\n\n");
        reasoning.append(p);
    }

    /** The text without reasoning; unchanged when it has none. */
    public static String strip(String text) {
        return split(text).visible();
    }
}
