package dev.clawgate.core.toolcall;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Model reasoning written inline as {@code <think>...</think>} (SPEC RP-2, RP-4). Only the exact
 * tag name counts: {@code <thinking-cap>} is the user's content, not a scratchpad.
 */
public final class ThinkTags {
    private static final Pattern OPEN = Pattern.compile("<think(?:\\s[^<>]*)?>", Pattern.CASE_INSENSITIVE);
    private static final String CLOSE = "</think>";

    /** The reply without reasoning, and the reasoning that was cut out (blocks joined by a blank line). */
    public record Split(String visible, String reasoning) {
    }

    private ThinkTags() {
    }

    /**
     * Removes every think block; an unclosed block runs to the end of the text, and a close tag
     * with no open tag before it (templates that open the block in the prompt) ends reasoning
     * that started at the beginning of the reply.
     */
    public static Split split(String text) {
        if (text == null || text.isEmpty()) return new Split("", "");
        StringBuilder visible = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        int pos = 0;
        int firstOpen = find(text, 0);
        int orphanClose = indexOfIgnoreCase(text, CLOSE, 0);
        if (orphanClose >= 0 && (firstOpen < 0 || orphanClose < firstOpen)) {
            append(reasoning, text.substring(0, orphanClose));
            pos = orphanClose + CLOSE.length();
        }
        Matcher open = OPEN.matcher(text);
        while (open.find(pos)) {
            visible.append(text, pos, open.start());
            int close = indexOfIgnoreCase(text, CLOSE, open.end());
            if (close < 0) {
                append(reasoning, text.substring(open.end()));
                pos = text.length();
                break;
            }
            append(reasoning, text.substring(open.end(), close));
            pos = close + CLOSE.length();
        }
        if (pos == 0) return new Split(text, "");
        visible.append(text, pos, text.length());
        return new Split(Layout.tidy(visible.toString()), reasoning.toString());
    }

    /** The text without reasoning; unchanged when it has none. */
    public static String strip(String text) {
        return split(text).visible();
    }

    private static int find(String text, int from) {
        Matcher m = OPEN.matcher(text);
        return m.find(from) ? m.start() : -1;
    }

    private static void append(StringBuilder reasoning, String part) {
        String p = part.strip();
        if (p.isEmpty()) return;
        if (!reasoning.isEmpty()) reasoning.append("\n\n");
        reasoning.append(p);
    }

    static int indexOfIgnoreCase(String text, String needle, int from) {
        String lower = needle.toLowerCase(Locale.ROOT);
        int last = text.length() - needle.length();
        for (int i = Math.max(from, 0); i <= last; i++) {
            if (text.regionMatches(true, i, lower, 0, needle.length())) return i;
        }
        return -1;
    }
}
