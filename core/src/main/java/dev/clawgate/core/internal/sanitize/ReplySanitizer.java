package dev.clawgate.core.internal.sanitize;

import dev.clawgate.core.internal.toolcall.OutputScanner;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import dev.clawgate.core.internal.toolcall.Segment;
import dev.clawgate.core.internal.toolcall.ThinkTags;
import dev.clawgate.core.internal.toolcall.ToolCallParser;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cleans a final reply before it is sent (SPEC RP-2): the user never sees protocol text. Each step returns its input
 * unchanged when it finds nothing, so ordinary replies pass byte for byte.
 */
public final class ReplySanitizer {
    private static final Pattern TOOL_SUMMARY_PREFIX =
            Pattern.compile("^\\s*\\[Used tools:[^\\]\\n]*\\]\\s*", Pattern.CASE_INSENSITIVE);

    private static final Pattern BLANK_RUN = Pattern.compile("\\n[ \\t]*\\n(?:[ \\t]*\\n)+");

    private ReplySanitizer() {}

    /**
     * The reply as the user may see it: without an echoed {@code [Used tools: ...]} prefix, reasoning, tool-call blocks
     * in every dialect the scanner knows, tool declarations and results, tool-call JSON naming a registered tool, and
     * leading tool narration (unless that would leave nothing); no blank space at either end and at most one blank line
     * in a row. Exactly what {@link IncrementalSanitizer} sends for the same text, however it is cut.
     */
    public static String sanitize(String text, Set<String> registeredToolNames) {
        return sanitize(text, registeredToolNames, ReasoningTags.DEFAULT);
    }

    public static String sanitize(String text, Set<String> registeredToolNames, ReasoningTags reasoningTags) {
        if (text == null || text.isEmpty()) return "";
        IncrementalSanitizer s = new IncrementalSanitizer(registeredToolNames, reasoningTags);
        return s.push(text) + s.finish();
    }

    /** Removes inline reasoning blocks, an unclosed one to the end (SPEC RP-4). */
    public static String stripThink(String text) {
        return ThinkTags.strip(text);
    }

    /** Removes tool-call blocks in every dialect, declarations and stray protocol tags. */
    public static String stripCallSyntax(String text) {
        return ToolCallParser.stripCallSyntax(text);
    }

    /**
     * Removes tool results: {@code <tool_result>} blocks (an unclosed one to the end), stray close tags, {@code [Tool
     * results]} headers.
     */
    public static String stripToolResultBlocks(String text) {
        return without(text, Set.of(), s -> s.kind() == Segment.Kind.RESULT && s.form() != Segment.Form.JSON);
    }

    /**
     * Removes isolated tool-call JSON (a line, a {@code ```json} fence or the whole reply) that names only registered
     * tools, tool-result envelopes, and result objects that follow such a call. JSON naming anything else is the user's
     * content and stays.
     */
    public static String stripIsolatedToolJson(String text, Set<String> registeredToolNames) {
        Set<String> registered = registeredToolNames == null ? Set.of() : registeredToolNames;
        return without(
                text,
                registered,
                s -> (s.form() == Segment.Form.JSON || s.form() == Segment.Form.FENCE)
                        && (s.kind() == Segment.Kind.CALL || s.kind() == Segment.Kind.RESULT));
    }

    private static String without(String text, Set<String> registered, java.util.function.Predicate<Segment> drop) {
        if (text == null || text.isEmpty()) return "";
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        for (Segment s : OutputScanner.scanAll(text, ReasoningTags.DEFAULT, registered)) {
            if (drop.test(s)) {
                changed = true;
                out.append(s.shown());
            } else {
                out.append(s.source());
            }
        }
        return changed ? tidy(out.toString()) : text;
    }

    /** Removes a {@code [Used tools: a, b]} prefix the model echoed from its history (SPEC RP-3). */
    public static String stripToolSummaryPrefix(String text) {
        if (text == null || text.isEmpty()) return "";
        Matcher m = TOOL_SUMMARY_PREFIX.matcher(text);
        return m.lookingAt() ? text.substring(m.end()) : text;
    }

    /**
     * Drops leading lines in which the model narrates its tool use ("Let me check..."). Only leading lines, and never
     * all of them: a reply that is nothing but narration is kept.
     */
    public static String stripNarration(String text) {
        if (text == null || text.isEmpty()) return "";
        String[] lines = text.split("\n", -1);
        int first = 0;
        boolean sawNarration = false;
        while (first < lines.length) {
            String line = lines[first];
            if (line.isBlank()) {
                first++;
            } else if (Narration.isNarration(line)) {
                sawNarration = true;
                first++;
            } else {
                break;
            }
        }
        if (!sawNarration || first == lines.length) return text;
        return String.join("\n", List.of(lines).subList(first, lines.length));
    }

    /** Runs of blank lines left by a removed block become one blank line; both ends are trimmed. */
    static String tidy(String text) {
        return BLANK_RUN.matcher(text).replaceAll("\n\n").strip();
    }
}
