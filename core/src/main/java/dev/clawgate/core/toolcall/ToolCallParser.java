package dev.clawgate.core.toolcall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads prompt-guided tool calls out of a model's text reply (SPEC AG-1, SP-3): tags
 * ({@code <tool_call>}, {@code <toolcall>}, {@code <tool-call>}, {@code <invoke>}) with JSON
 * inside, several per reply, an unclosed last tag, tool fences, perl-style {@code TOOL_CALL}
 * blocks and an OpenAI-shaped {@code {"tool_calls": [...]}} reply. Arguments may be given as
 * {@code arguments} or {@code parameters}, as an object or as a string holding JSON. A call that
 * cannot be read is still returned, with {@link ToolCall#parseError()} set, so the agent loop
 * can tell the model what went wrong instead of silently doing nothing.
 */
public final class ToolCallParser {
    /** The four spellings SPEC RP-2 names, plus namespaced forms; an unclosed one starts protocol text. */
    private static final Pattern CALL_TAG = Pattern.compile(
            "</?(?:[A-Za-z][\\w-]*:)?(?:tool_call|toolcall|tool-call|invoke)(?:\\s[^<>]*)?/?>", Pattern.CASE_INSENSITIVE);

    private ToolCallParser() {
    }

    /** Splits a reply into its visible text and its tool calls; ids the text did not give are {@code call_1}, {@code call_2}, ... */
    public static ParsedReply parse(String text) {
        if (text == null || text.isBlank()) return new ParsedReply("", List.of());
        String t = ThinkTags.strip(text);
        ParsedReply openAi = openAiShape(t);
        if (openAi != null) return openAi;
        List<CallScanner.Block> blocks = CallScanner.scan(t);
        List<RawCall> raw = new ArrayList<>();
        StringBuilder visible = new StringBuilder();
        int pos = 0;
        for (CallScanner.Block b : blocks) {
            visible.append(t, pos, b.start());
            raw.addAll(b.calls());
            pos = b.end();
        }
        visible.append(t, pos, t.length());
        return new ParsedReply(Layout.tidy(visible.toString()), withIds(raw));
    }

    /**
     * The text without any tool-call syntax: every block {@link #parse} would read (malformed ones
     * too), stray close tags, and an unclosed call tag with everything after it. Returns the text
     * unchanged when it holds none, so the user's own content is kept byte for byte.
     */
    public static String stripCallSyntax(String text) {
        if (text == null || text.isEmpty()) return "";
        List<CallScanner.Block> blocks = CallScanner.scan(text);
        StringBuilder out = new StringBuilder();
        int pos = 0;
        for (CallScanner.Block b : blocks) {
            out.append(text, pos, b.start());
            pos = b.end();
        }
        out.append(text, pos, text.length());
        String rest = out.toString();
        Matcher tag = CALL_TAG.matcher(rest);
        StringBuilder cleaned = new StringBuilder();
        int at = 0;
        boolean changed = !blocks.isEmpty();
        while (tag.find()) {
            changed = true;
            cleaned.append(rest, at, tag.start());
            at = tag.end();
            if (rest.charAt(tag.start() + 1) != '/' && !tag.group().endsWith("/>")) {
                at = rest.length(); // an open tag nothing could read: the rest is call payload
                break;
            }
        }
        if (!changed) return text;
        cleaned.append(rest, at, rest.length());
        return Layout.tidy(cleaned.toString());
    }

    /** A reply that is, as a whole, an OpenAI message object with {@code tool_calls}; null otherwise. */
    private static ParsedReply openAiShape(String text) {
        String t = text.strip();
        if (!t.startsWith("{") || !t.contains("\"tool_calls\"")) return null;
        JsonNode node;
        try {
            node = CallBodyReader.JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return null; // not JSON as a whole: the scanner looks at it as ordinary text
        }
        JsonNode calls = node.get("tool_calls");
        if (calls == null || !calls.isArray() || calls.isEmpty()) return null;
        JsonNode content = node.get("content");
        String visible = content != null && content.isTextual() ? content.asText().strip() : "";
        return new ParsedReply(visible, withIds(CallBodyReader.fromJson(calls)));
    }

    private static List<ToolCall> withIds(List<RawCall> raw) {
        Set<String> used = new HashSet<>();
        for (RawCall r : raw) if (r.id() != null) used.add(r.id());
        List<ToolCall> calls = new ArrayList<>(raw.size());
        int next = 1;
        for (RawCall r : raw) {
            String id = r.id();
            if (id == null) {
                do {
                    id = "call_" + next++;
                } while (used.contains(id));
                used.add(id);
            }
            calls.add(new ToolCall(id, r.name(), r.arguments(), r.parseError()));
        }
        return calls;
    }
}
