package dev.clawgate.core.sanitize;

import dev.clawgate.core.toolcall.ThinkTags;
import dev.clawgate.core.toolcall.ToolCallParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cleans a final reply before it is sent (SPEC RP-2): the user never sees protocol text. Each
 * step returns its input unchanged when it finds nothing, so ordinary replies pass byte for byte.
 */
public final class ReplySanitizer {
    private static final Pattern TOOL_RESULT_BLOCK = Pattern.compile(
            "<tool_result(?:\\s[^<>]*)?>.*?</tool_result>", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern TOOL_RESULT_OPEN = Pattern.compile("<tool_result(?:\\s[^<>]*)?>", Pattern.CASE_INSENSITIVE);
    private static final Pattern TOOL_RESULT_CLOSE = Pattern.compile("</tool_result>", Pattern.CASE_INSENSITIVE);
    private static final Pattern TOOL_RESULTS_HEADER = Pattern.compile("(?im)^[ \\t]*\\[Tool results\\][ \\t]*(?:\\r?\\n|$)");
    private static final Pattern TOOL_SUMMARY_PREFIX = Pattern.compile("^\\s*\\[Used tools:[^\\]\\n]*\\]\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern BLANK_RUN = Pattern.compile("\\n[ \\t]*\\n(?:[ \\t]*\\n)+");

    private ReplySanitizer() {
    }

    /**
     * The reply as the user may see it: without an echoed {@code [Used tools: ...]} prefix,
     * reasoning, tool-call blocks and fences, tool results, tool-call JSON naming a registered
     * tool, and leading tool narration (unless that would leave nothing).
     */
    public static String sanitize(String text, Set<String> registeredToolNames) {
        if (text == null || text.isEmpty()) return "";
        Set<String> registered = registeredToolNames == null ? Set.of() : registeredToolNames;
        String s = stripToolSummaryPrefix(text);
        s = stripProtocolMarkup(s);
        s = stripIsolatedToolJson(s, registered);
        s = stripNarration(s);
        return s.equals(text) ? text : tidy(s);
    }

    /** Reasoning, tool-call syntax and tool-result blocks: markup that is protocol wherever it appears. */
    public static String stripProtocolMarkup(String text) {
        return stripToolResultBlocks(ToolCallParser.stripCallSyntax(stripThink(text)));
    }

    /** Removes inline {@code <think>...</think>} blocks, an unclosed one to the end (SPEC RP-4). */
    public static String stripThink(String text) {
        return ThinkTags.strip(text);
    }

    /** Removes tool-call tags (all four spellings), tool fences and TOOL_CALL blocks. */
    public static String stripCallSyntax(String text) {
        return ToolCallParser.stripCallSyntax(text);
    }

    /** Removes {@code <tool_result>} blocks (an unclosed one to the end), stray close tags and {@code [Tool results]} headers. */
    public static String stripToolResultBlocks(String text) {
        if (text == null || text.isEmpty()) return "";
        String s = TOOL_RESULT_BLOCK.matcher(text).replaceAll("");
        Matcher open = TOOL_RESULT_OPEN.matcher(s);
        if (open.find()) s = s.substring(0, open.start());
        s = TOOL_RESULT_CLOSE.matcher(s).replaceAll("");
        s = TOOL_RESULTS_HEADER.matcher(s).replaceAll("");
        return s.equals(text) ? text : tidy(s);
    }

    /** Removes a {@code [Used tools: a, b]} prefix the model echoed from its history (SPEC RP-3). */
    public static String stripToolSummaryPrefix(String text) {
        if (text == null || text.isEmpty()) return "";
        Matcher m = TOOL_SUMMARY_PREFIX.matcher(text);
        return m.lookingAt() ? text.substring(m.end()) : text;
    }

    /**
     * Drops leading lines in which the model narrates its tool use ("Let me check..."). Only
     * leading lines, and never all of them: a reply that is nothing but narration is kept.
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

    /**
     * Removes isolated tool-call JSON (a line, a {@code ```json} fence or the whole reply) that
     * names only registered tools, tool-result envelopes, and result objects that follow such a
     * call. JSON naming anything else is the user's content and stays.
     */
    public static String stripIsolatedToolJson(String text, Set<String> registeredToolNames) {
        if (text == null || text.isEmpty()) return "";
        Set<String> registered = registeredToolNames == null ? Set.of() : registeredToolNames;
        if (text.strip().contains("\n") && ToolJson.classify(text, registered, false) != ToolJson.Kind.CONTENT) return "";
        String[] lines = text.split("\n", -1);
        List<String> kept = new ArrayList<>(lines.length);
        boolean afterCall = false;
        boolean changed = false;
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.startsWith("```json")) {
                int close = closingFence(lines, i + 1);
                if (close > 0) {
                    String body = String.join("\n", List.of(lines).subList(i + 1, close));
                    ToolJson.Kind kind = ToolJson.classify(body, registered, afterCall);
                    if (kind != ToolJson.Kind.CONTENT) {
                        afterCall |= kind == ToolJson.Kind.CALL;
                        changed = true;
                        i = close;
                        continue;
                    }
                }
            }
            ToolJson.Kind kind = ToolJson.classify(t, registered, afterCall);
            if (kind == ToolJson.Kind.CONTENT) {
                kept.add(lines[i]);
            } else {
                afterCall |= kind == ToolJson.Kind.CALL;
                changed = true;
            }
        }
        return changed ? tidy(String.join("\n", kept)) : text;
    }

    private static int closingFence(String[] lines, int from) {
        for (int i = from; i < lines.length; i++) {
            if (lines[i].strip().equals("```")) return i;
        }
        return -1;
    }

    static String tidy(String text) {
        return BLANK_RUN.matcher(text).replaceAll("\n\n").strip();
    }
}
