package dev.clawgate.core.internal.toolcall;

import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads prompt-guided tool calls out of a model's text reply (SPEC AG-1, SP-3) with the {@link OutputScanner}: every
 * dialect its grammar knows, several calls per reply. Only a complete, closed block is a call; a call that cannot be
 * read, or a block left unclosed, is returned with {@link ToolCall#parseError()} set, so the agent loop tells the model
 * what went wrong and runs nothing; the agent loop runs only tools that are registered.
 */
public final class ToolCallParser {
    private ToolCallParser() {}

    /**
     * As {@link #parse(String, Set, ReasoningTags)} for a parser not told the registry: markup-less JSON counts only as
     * an envelope.
     */
    public static ParsedReply parse(String text) {
        return parse(text, null, ReasoningTags.DEFAULT);
    }

    /**
     * Splits a reply into its visible text and its tool calls; ids the text did not give are {@code call_1},
     * {@code call_2}, ...
     *
     * @param registered the registered tool names (markup-less JSON is a call only when it names them); null: any
     */
    public static ParsedReply parse(String text, Set<String> registered, ReasoningTags reasoning) {
        if (text == null || text.isBlank()) return new ParsedReply("", List.of());
        List<RawCall> raw = new ArrayList<>();
        StringBuilder visible = new StringBuilder();
        for (Segment s : OutputScanner.scanAll(text, reasoning, registered)) {
            if (s.kind() == Segment.Kind.TEXT) visible.append(s.source());
            else visible.append(s.shown());
            raw.addAll(s.calls());
        }
        return new ParsedReply(Layout.tidy(visible.toString()), withIds(raw));
    }

    /**
     * The text without any tool-call syntax: call blocks (malformed and unclosed ones too), tool declarations, stray
     * protocol tags and tokens. Reasoning and tool results are left to their own steps. Returns the text unchanged when
     * it holds none.
     */
    public static String stripCallSyntax(String text) {
        if (text == null || text.isEmpty()) return "";
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        for (Segment s : OutputScanner.scanAll(text, ReasoningTags.DEFAULT, null)) {
            boolean call = s.kind() == Segment.Kind.CALL || s.kind() == Segment.Kind.PROTOCOL;
            if (call) {
                changed = true;
                out.append(s.shown());
            } else {
                out.append(s.source());
            }
        }
        return changed ? Layout.tidy(out.toString()) : text;
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
